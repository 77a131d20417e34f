import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ofLiveCourse } from '../courses/live.js';
import type { DeadlineStatus, StoredState } from './engine.js';
import { warned } from './statusSql.js';

/**
 * Whose courses to rank: the given users, or everyone. Named users are filtered by a list of ids, not
 * by a subquery on `users`: then PostgreSQL plans index scans for a department whatever the company's
 * size, where a subquery led it to read every row of a 10 000-employee company (42 ms instead of 7).
 */
export type UrgencyScope = { userIds: readonly number[] } | 'everyone';

/** Ids per query: under both databases' limits on bound parameters. */
const USERS_PER_QUERY = 2000;
const PACK = 4294967296;

/** A user's most urgent enrolled course, with what the analytics overview shows of it. */
export interface UrgentCourse {
  course_id: number;
  title: string;
  deadline: string | null;
  /** As `deadlineStatus` decides it; null for a course without a deadline. */
  status: DeadlineStatus | null;
  progress: number;
}

const RANK: Record<DeadlineStatus, number> = { overdue: 0, almost_overdue: 1, in_order: 2 };
export const STATUS_OF_RANK: readonly DeadlineStatus[] = ['overdue', 'almost_overdue', 'in_order'];

/**
 * The order of docs/rules.md §Analytics: overdue before almost overdue before in order (no deadline
 * counts as in order), then the earliest deadline (none: last), then the lower course id so that the
 * choice is the same on every call.
 */
export function moreUrgent(
  a: { course_id: number; deadline: string | null; status: DeadlineStatus | null },
  b: { course_id: number; deadline: string | null; status: DeadlineStatus | null },
): number {
  const at = (d: string | null) => (d === null ? Number.POSITIVE_INFINITY : Date.parse(d));
  return (
    RANK[a.status ?? 'in_order'] - RANK[b.status ?? 'in_order'] ||
    at(a.deadline) - at(b.deadline) ||
    a.course_id - b.course_id
  );
}

/** What the ranking reads of a stored row (`urgentRowsOf`): the other columns never change a choice. */
const RANKING_TIMES = ['enrolled_at', 'valid_until', 'completed_at', 'deadline', 'warning_at'] as const;

/**
 * The users whose ranking inputs differ between their rows before and after a rewrite: a row only a
 * record keeps (not enrolled) is never ranked, so a learner's first start of a course they are not
 * enrolled in, or any change of a row in nothing the ranking reads, leaves the kept choice standing
 * (time alone is covered by its `stable_until`).
 */
export function rankingChanged(before: readonly StoredState[], after: readonly StoredState[]): number[] {
  const ranked = (rows: readonly StoredState[]) =>
    new Map(rows.filter((r) => r.enrolled_at !== null).map((r) => [`${r.user_id}:${r.course_id}`, r]));
  const was = ranked(before);
  const is = ranked(after);
  const time = (t: string | null) => (t === null ? null : Date.parse(t));
  const same = (a: StoredState, b: StoredState) =>
    a.lessons_completed === b.lessons_completed &&
    a.tests_completed === b.tests_completed &&
    RANKING_TIMES.every((c) => time(a[c]) === time(b[c]));
  const users = new Set<number>();
  for (const [k, a] of was) {
    const b = is.get(k);
    if (!b || !same(a, b)) users.add(a.user_id);
  }
  for (const [k, b] of is) if (!was.has(k)) users.add(b.user_id);
  return [...users];
}

export interface UrgentRow {
  user_id: number;
  course_id: number;
  /** 0 overdue, 1 almost overdue, 2 in order, null without a deadline. */
  status: number | null;
  deadline: string | null;
  title: string;
  done: number;
  total: number | null;
}

/**
 * Per user in scope, the most urgent of their enrolled courses, from the maintained rows only (rows past
 * `valid_until` are left to the caller, which recomputes them). Set-based and portable: one pass over
 * the urgency index takes three minima per user (earliest unfinished deadline, earliest unfinished
 * deadline whose warning window is open, earliest deadline at all); they decide the status and the
 * deadline exactly as `deadlineStatus` and the order of `moreUrgent` do:
 * - an earliest unfinished deadline before now means overdue, and that deadline is the most urgent;
 * - otherwise no unfinished deadline has passed, so an open warning window means almost overdue;
 * - otherwise every course is in order (or without deadline) and the earliest deadline wins.
 * Then one lookup per user by (user, deadline) in the same index picks the lowest course id among the
 * rows of that status with that deadline, and its items done (without any deadline: the lowest course
 * id of all). Times compare as text on SQLite, which holds them in one ISO format (docs/rules.md §Two databases), and
 * as timestamptz on PostgreSQL. Aggregates rather than ROW_NUMBER: SQLite's window function sorts every enrollment
 * (3–4× slower at 100 000 enrollments); on PostgreSQL both cost the same (docs/performance.md).
 */
export async function urgentRows(db: Kysely<Database>, scope: UrgencyScope, now: string): Promise<UrgentRow[]> {
  if (scope === 'everyone') return urgentRowsOf(db, undefined, now);
  const out: UrgentRow[] = [];
  for (let i = 0; i < scope.userIds.length; i += USERS_PER_QUERY)
    out.push(...(await urgentRowsOf(db, scope.userIds.slice(i, i + USERS_PER_QUERY), now)));
  return out;
}

async function urgentRowsOf(
  db: Kysely<Database>,
  userIds: readonly number[] | undefined,
  now: string,
): Promise<UrgentRow[]> {
  if (userIds?.length === 0) return [];
  const inScope = userIds ? sql`s.user_id in (${sql.join(userIds)}) and` : sql``;
  // Rows of deleted courses lose their enrollment when the course goes; the filter keeps them out regardless.
  const live = (s: string) =>
    sql`${sql.ref(`${s}.enrolled_at`)} is not null
      and (${sql.ref(`${s}.valid_until`)} is null or ${sql.ref(`${s}.valid_until`)} > ${now})
      and ${ofLiveCourse(`${s}.course_id`)}`;
  // The course and its items done in one integer (course_id · 2³² + done, both below 2³¹): the minimum
  // is the lowest course id, and it brings that course's items done along.
  const packed = (t: string) =>
    sql`${sql.ref(`${t}.course_id`)} * ${sql.lit(PACK)} + ${sql.ref(`${t}.lessons_completed`)} + ${sql.ref(`${t}.tests_completed`)}`;
  const result = await sql<UrgentRow>`
    with agg as (
      select s.user_id,
        min(case when s.completed_at is null then s.deadline end) as open_min,
        min(case when s.completed_at is null and ${warned('s', now)} then s.deadline end) as warned_min,
        min(s.deadline) as any_min
      from learning_states s
      where ${inScope} ${live('s')}
      group by s.user_id
    ), win as (
      select user_id,
        case when open_min < ${now} then 0 when warned_min is not null then 1 when any_min is not null then 2 end
          as status,
        case when open_min < ${now} then open_min when warned_min is not null then warned_min else any_min end
          as deadline
      from agg
    ), pick as materialized (
      select w.user_id, w.status, w.deadline,
        case when w.deadline is null then (
          select min(${packed('t')}) from learning_states t
          where t.user_id = w.user_id and t.deadline is null and ${live('t')}
        ) else (
          select min(${packed('t')}) from learning_states t
          where t.user_id = w.user_id and t.deadline = w.deadline and ${live('t')}
            and (w.status = 2 or (t.completed_at is null and (w.status = 0 or ${warned('t', now)})))
        ) end as packed
      from win w
    )
    select p.user_id, c.id as course_id, p.status, p.deadline, c.title,
      p.packed % ${sql.lit(PACK)} as done, cs.lessons_total + cs.tests_total as total
    from pick p
    join courses c on c.id = p.packed / ${sql.lit(PACK)}
    left join course_stats cs on cs.course_id = c.id
  `.execute(db);
  return result.rows;
}

/** A row of `user_urgency`: the ranking's choice for a user at the time it was written, and until when. */
export interface UrgencyEntry {
  user_id: number;
  course_id: number | null;
  status: number | null;
  deadline: string | null;
  done: number;
  stable_until: string | null;
}

/** The earliest of the given ISO times (null: none). */
function earliest(...times: (string | null)[]): string | null {
  let out: number | null = null;
  for (const t of times) {
    if (t === null) continue;
    const ms = Date.parse(t);
    if (out === null || ms < out) out = ms;
  }
  return out === null ? null : new Date(out).toISOString();
}

/**
 * What `user_urgency` should hold for the given users at `now`: the choice of `urgentRows`, and the
 * first moment at which that choice may change with time alone — one millisecond after an unfinished
 * deadline not yet passed (overdue means before now), the opening of a warning window not yet open,
 * the end of a row's cycle (`valid_until`). Until then every comparison of the ranking with now gives
 * what it gave at `now`, so the choice holds. A user whose rows are past `valid_until` already gets a
 * row that has expired (the read ranks them itself); a user without enrolled rows gets none.
 */
export async function urgencyEntries(
  db: Kysely<Database>,
  userIds: readonly number[],
  now: string,
): Promise<UrgencyEntry[]> {
  const out = new Map<number, UrgencyEntry>();
  for (let i = 0; i < userIds.length; i += USERS_PER_QUERY) {
    const part = userIds.slice(i, i + USERS_PER_QUERY);
    const [chosen, changes] = await Promise.all([
      urgentRowsOf(db, part, now),
      sql<{ user_id: number; next_overdue: string | null; next_warning: string | null; next_cycle: string | null }>`
        select s.user_id,
          min(case when s.completed_at is null and s.deadline >= ${now} then s.deadline end) as next_overdue,
          min(case when s.completed_at is null and s.warning_at > ${now} then s.warning_at end) as next_warning,
          min(s.valid_until) as next_cycle
        from learning_states s
        where s.user_id in (${sql.join(part)}) and s.enrolled_at is not null
          and ${ofLiveCourse('s.course_id')}
        group by s.user_id
      `.execute(db),
    ]);
    for (const c of changes.rows) {
      const overdueAfter = c.next_overdue === null ? null : new Date(Date.parse(c.next_overdue) + 1).toISOString();
      out.set(c.user_id, {
        user_id: c.user_id,
        course_id: null,
        status: null,
        deadline: null,
        done: 0,
        stable_until: earliest(overdueAfter, c.next_warning, c.next_cycle),
      });
    }
    for (const r of chosen) {
      const entry = out.get(r.user_id);
      if (!entry) continue;
      Object.assign(entry, { course_id: r.course_id, status: r.status, deadline: r.deadline, done: r.done });
    }
  }
  return [...out.values()];
}

/** A kept row; `fresh` is 0 once it may no longer hold (time has overtaken it). */
export interface KeptUrgency {
  user_id: number;
  course_id: number | null;
  status: number | null;
  deadline: string | null;
  done: number;
  fresh: number;
}

/**
 * The kept rows of the users in scope. A row holds while now is before its `stable_until` and its
 * course is not deleted (the caller checks the course); otherwise the caller ranks that user itself.
 */
export async function keptUrgency(db: Kysely<Database>, scope: UrgencyScope, now: string): Promise<KeptUrgency[]> {
  const read = async (userIds: readonly number[] | undefined) => {
    const inScope = userIds ? sql`where k.user_id in (${sql.join(userIds)})` : sql``;
    const result = await sql<KeptUrgency>`
      select k.user_id, k.course_id, k.status, k.deadline, k.done,
        case when k.stable_until is null or k.stable_until > ${now} then 1 else 0 end as fresh
      from user_urgency k
      ${inScope}
    `.execute(db);
    return result.rows;
  };
  if (scope === 'everyone') return read(undefined);
  const rows: KeptUrgency[] = [];
  for (let i = 0; i < scope.userIds.length; i += USERS_PER_QUERY)
    for (const row of await read(scope.userIds.slice(i, i + USERS_PER_QUERY))) rows.push(row);
  return rows;
}
