import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { liveCourse } from '../courses/live.js';
import { pastDeadline, warned } from './statusSql.js';

/**
 * How the weekly digests split the company: each user is in exactly one group, and a digest's team is
 * a union of groups. Users named in `apart` (the managers receiving a digest, whose own courses their
 * digest leaves out) form a group of their own; everyone else is in the group of their department
 * (0: none). With `departments`, only those departments' users are read.
 */
export interface AttentionGrouping {
  apart: readonly number[];
  departments?: readonly number[];
}

/** A group's enrolled, unfinished courses in one status: how many, and of how many people. */
export interface AttentionCount {
  group: number;
  overdue: boolean;
  total: number;
  people: number;
}

/** A user's courses of one deadline in a group's status, among the group's most urgent. */
export interface AttentionLead {
  group: number;
  overdue: boolean;
  user_id: number;
  first_name: string;
  last_name: string;
  deadline: string;
  courses: number;
}

/** A course needing attention of one of the given users. */
export interface AttentionCourse {
  user_id: number;
  course_id: number;
  deadline: string;
  overdue: boolean;
}

/**
 * The enrolled, unfinished courses that are overdue or almost overdue `now`, by their stored times:
 * the warning window (`warning_at`, the engine's `warningAt`) has opened, and the course is overdue
 * once `now` is past the deadline (`deadlineStatus`). Rows past `valid_until` are left to the periodic
 * renewal, which the reminder pass runs before its digests.
 */
function needingAttention(now: string, grouping: AttentionGrouping, users?: readonly number[]): RawBuilder<unknown> {
  const apart = grouping.apart.length > 0 ? sql`s.user_id in (${sql.join(grouping.apart)})` : sql`false`;
  const departments = grouping.departments ? sql`and u.department_id in (${sql.join(grouping.departments)})` : sql``;
  const only = users ? sql`and s.user_id in (${sql.join(users)})` : sql``;
  return sql`
    select case when ${apart} then -s.user_id else coalesce(u.department_id, 0) end as grp,
      case when ${pastDeadline('s', now)} then 1 else 0 end as late,
      s.user_id, s.course_id, s.deadline, u.first_name, u.last_name
    from learning_states s
    join users u on u.id = s.user_id
    join courses c on c.id = s.course_id
    where s.enrolled_at is not null and s.completed_at is null and s.deadline is not null
      and ${warned('s', now)} and (s.valid_until is null or s.valid_until > ${now})
      and u.deleted_at is null and ${liveCourse('c')} ${departments} ${only}`;
}

/** How many courses need attention per group and status, and of how many people. */
export async function attentionCounts(
  db: Kysely<Database>,
  now: string,
  grouping: AttentionGrouping,
): Promise<AttentionCount[]> {
  if (grouping.departments?.length === 0) return [];
  const { rows } = await sql<{ grp: number; late: number; total: number; people: number }>`
    with a as (${needingAttention(now, grouping)}),
    -- Per person first: two hash aggregates rather than sorting every course for a distinct count.
    per_person as (select grp, late, user_id, count(*) as courses from a group by grp, late, user_id)
    select grp, late, sum(courses) as total, count(*) as people from per_person group by grp, late
  `.execute(db);
  return rows.map((r) => ({
    group: Number(r.grp),
    overdue: Number(r.late) === 1,
    total: Number(r.total),
    people: Number(r.people),
  }));
}

/**
 * Per group and status, everything that may be among its `lines` most urgent courses by deadline:
 * the courses of which fewer than `lines` of the group fall due strictly earlier, one row per user
 * and deadline. Names order the ties, and only the caller can compare them in Russian; ties are therefore
 * handed over per person, not per course, so a mass change that gives a whole company one deadline
 * costs one row per employee.
 */
export async function attentionLeads(
  db: Kysely<Database>,
  now: string,
  grouping: AttentionGrouping,
  lines: number,
): Promise<AttentionLead[]> {
  if (grouping.departments?.length === 0 || lines === 0) return [];
  const { rows } = await sql<
    Omit<AttentionLead, 'group' | 'overdue' | 'courses'> & { grp: number; late: number; courses: number }
  >`
    with a as (${needingAttention(now, grouping)}),
    leads as (
      select grp, late, user_id, first_name, last_name, deadline, count(*) as courses from a
      group by grp, late, user_id, first_name, last_name, deadline
    ),
    -- How many of the group's courses fall due strictly earlier: the window's frame runs up to the
    -- last lead of the same deadline, whose own sum is taken back off.
    placed as (
      select leads.*,
        sum(courses) over (partition by grp, late order by deadline)
          - sum(courses) over (partition by grp, late, deadline) as earlier
      from leads
    )
    select grp, late, user_id, first_name, last_name, deadline, courses from placed where earlier < ${lines}
  `.execute(db);
  return rows.map(({ grp, late, courses, ...r }) => ({
    ...r,
    group: Number(grp),
    overdue: Number(late) === 1,
    courses: Number(courses),
  }));
}

/** The courses needing attention of these users (the people a digest names), by user, deadline and course. */
export async function attentionCourses(
  db: Kysely<Database>,
  now: string,
  userIds: readonly number[],
): Promise<AttentionCourse[]> {
  const out: AttentionCourse[] = [];
  for (let i = 0; i < userIds.length; i += 2000) {
    const { rows } = await sql<Omit<AttentionCourse, 'overdue'> & { late: number }>`
      with a as (${needingAttention(now, { apart: [] }, userIds.slice(i, i + 2000))})
      select user_id, course_id, deadline, late from a
    `.execute(db);
    for (const { late, ...r } of rows) out.push({ ...r, overdue: Number(late) === 1 });
  }
  return out.sort((a, b) => a.user_id - b.user_id || cmp(a.deadline, b.deadline) || a.course_id - b.course_id);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
