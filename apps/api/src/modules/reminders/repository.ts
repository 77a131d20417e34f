import { sql } from 'kysely';
import { rowsTable, timeValue } from '../../db/dialect.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { liveCourse } from '../courses/live.js';
import { pastDeadline, warned } from '../progress/statusSql.js';

export type ReminderKind = 'reminder_almost_overdue' | 'reminder_overdue' | 'reminder_new_cycle';

/** An enrolled learner's unfinished course and the reminder due for it now. */
export interface DueReminder {
  user_id: number;
  course_id: number;
  cycle: number;
  deadline: string | null;
  kind: ReminderKind;
}

export interface ReminderRecipient {
  id: number;
  email: string;
  first_name: string;
}

export interface ReminderClaim {
  user_id: number;
  course_id: number;
  cycle: number;
  kind: ReminderKind;
}

export interface DigestRecipient {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_code: string;
  role_name: string;
  department_id: number | null;
}

/** Four values a row: well inside the bound variables of one SQLite statement. */
const DIGESTS_PER_INSERT = 1000;

const byClaimKey = (a: ReminderClaim, b: ReminderClaim) =>
  a.user_id - b.user_id ||
  a.course_id - b.course_id ||
  a.cycle - b.cycle ||
  (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
const IDS_PER_QUERY = 2000;
/** Claims per statement: one bound value each way (see `rowsTable`), so only memory bounds it. */
const CLAIMS_PER_STATEMENT = 10_000;
const CLAIM_COLUMNS = [
  { name: 'user_id', type: 'integer' },
  { name: 'course_id', type: 'integer' },
  { name: 'cycle', type: 'integer' },
  { name: 'kind', type: 'text' },
] as const;

/**
 * What the reminder pass reads and records (issue 16). It owns `reminder_deliveries` and
 * `digest_deliveries`, whose primary keys make each mail's claim unique across passes and processes;
 * the candidates are a read over the maintained learning state (progress/states.ts owns those rows).
 */
export class RemindersRepository {
  constructor(private readonly uow: Pick<UnitOfWork, 'db' | 'kind'>) {}

  private get db() {
    return this.uow.db;
  }

  /**
   * The reminders due now, at most `limit` of them: for each unfinished enrollment of a live,
   * published, reachable course of a learner who wants reminders, the one kind `dueReminder`
   * (service.ts) gives for its stored times and what was already sent in its cycle. The rule runs in
   * the query, so a mass change returns the `limit` rows a pass claims rather than every enrollment
   * of the company, and the scan stops once they are found. The stored `warning_at` and `deadline`
   * are the engine's (`warningAt`); the comparisons are those of `deadlineStatus`.
   */
  async due(now: string, limit: number): Promise<DueReminder[]> {
    const at = timeValue(this.uow.kind, now);
    const sent = (kind: ReminderKind) =>
      sql<boolean>`exists (select 1 from reminder_deliveries r where r.user_id = s.user_id and r.course_id = s.course_id and r.cycle = s.cycle and r.kind = ${sql.lit(kind)})`;
    // Past the deadline only the overdue reminder may be due; before it, the warning's, then the cycle's.
    const kind = sql<ReminderKind | null>`case
      when c.has_deadline and ${pastDeadline('s', at)} then
        case when not ${sent('reminder_overdue')} then ${sql.lit('reminder_overdue')} end
      when c.has_deadline and ${warned('s', at)} and not ${sent('reminder_almost_overdue')}
        then ${sql.lit('reminder_almost_overdue')}
      when s.cycle > 1 and not ${sent('reminder_new_cycle')} then ${sql.lit('reminder_new_cycle')}
    end`;
    const rows = await this.db
      .selectFrom('learning_states as s')
      .innerJoin('courses as c', 'c.id', 's.course_id')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.user_id', 's.course_id', 's.cycle', 's.deadline', kind.as('kind')])
      .where('s.enrolled_at', 'is not', null)
      .where('s.completed_at', 'is', null)
      .where(liveCourse('c'))
      .where('c.is_published', '=', true)
      .where('c.accessibility', '!=', 'nobody')
      .where('u.deleted_at', 'is', null)
      .where('u.reminder_mails', '=', true)
      .where((eb) => eb.or([eb.and([eb('c.has_deadline', '=', true), warned('s', at)]), eb('s.cycle', '>', 1)]))
      .where(kind, 'is not', null)
      .limit(limit)
      .execute();
    return rows as DueReminder[];
  }

  /** Address and first name of the live users among `ids` (the learners whose reminders were won). */
  async recipients(ids: readonly number[]): Promise<ReminderRecipient[]> {
    const out: ReminderRecipient[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const part = await this.db
        .selectFrom('users')
        .select(['id', 'email', 'first_name'])
        .where('id', 'in', ids.slice(i, i + IDS_PER_QUERY))
        .where('deleted_at', 'is', null)
        .execute();
      for (const r of part) out.push(r);
    }
    return out;
  }

  /**
   * Records the reminders about to be sent and returns those this call inserted: a reminder already
   * recorded (by an earlier pass or another process) is left out, so it is never sent twice.
   */
  async claim(claims: readonly ReminderClaim[], now: string): Promise<ReminderClaim[]> {
    const won: ReminderClaim[] = [];
    // In key order: two processes claiming overlapping rows in different orders would deadlock.
    const ordered = [...claims].sort(byClaimKey);
    for (let i = 0; i < ordered.length; i += CLAIMS_PER_STATEMENT) {
      const part = ordered.slice(i, i + CLAIMS_PER_STATEMENT);
      const given = rowsTable(
        this.uow.kind,
        CLAIM_COLUMNS,
        part.map((c) => [c.user_id, c.course_id, c.cycle, c.kind]),
      );
      // `where true`: SQLite's grammar needs it between `insert … select … from` and `on conflict`.
      const { rows } = await sql<ReminderClaim>`
        insert into reminder_deliveries (user_id, course_id, cycle, kind, sent_at)
        select c.user_id, c.course_id, c.cycle, c.kind, ${timeValue(this.uow.kind, now)} from ${given} as c where true
        on conflict (user_id, course_id, cycle, kind) do nothing
        returning user_id, course_id, cycle, kind`.execute(this.db);
      for (const r of rows) won.push(r);
    }
    return won;
  }

  /** Managers with a department and admins who want the digest and have not had this week's. */
  async digestRecipients(week: string): Promise<DigestRecipient[]> {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select([
        'u.id',
        'u.email',
        'u.first_name',
        'u.last_name',
        'r.code as role_code',
        'r.name as role_name',
        'u.department_id',
      ])
      .where('u.deleted_at', 'is', null)
      .where('u.digest_mails', '=', true)
      .where((eb) =>
        eb.or([
          eb('r.code', '=', 'admin'),
          eb.and([eb('r.code', '=', 'manager'), eb('u.department_id', 'is not', null)]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('digest_deliveries as d')
              .select('d.user_id')
              .whereRef('d.user_id', '=', 'u.id')
              .where('d.week', '=', week),
          ),
        ),
      )
      .orderBy('u.id')
      .execute();
  }

  /**
   * Claims the week's digests of these users (with `sent` false: nothing to say, handled without a
   * mail); returns the users whose claim this call won. Callers pass the users in ascending order.
   */
  async claimDigests(
    rows: readonly { user_id: number; sent: boolean }[],
    week: string,
    now: string,
  ): Promise<number[]> {
    const won: number[] = [];
    for (let i = 0; i < rows.length; i += DIGESTS_PER_INSERT) {
      const part = rows.slice(i, i + DIGESTS_PER_INSERT);
      const inserted = await this.db
        .insertInto('digest_deliveries')
        .values(part.map((r) => ({ user_id: r.user_id, week, sent: r.sent, sent_at: now })))
        .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
        .returning('user_id')
        .execute();
      for (const r of inserted) won.push(r.user_id);
    }
    return won;
  }
}
