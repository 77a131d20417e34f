import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface Enrollment {
  user_id: number;
  course_id: number;
  /** The earliest assignment among the sources (docs/rules.md §Enrollment). */
  enrolled_at: string;
}

/**
 * Enrollment (docs/rules.md §Enrollment): a user is enrolled in a course through a direct assignment, their
 * department's courses or their groups' courses; removing the last source ends it. The `enrollments`
 * table holds the result, one row per (user, course) with the earliest assignment and its sources,
 * and is kept exact by `refresh`, which `EnrollmentService` (service.ts) runs in the same transaction
 * as every change of a source, so a page reads its viewer's rows by index instead of deriving the
 * whole company's.
 */
const USERS_PER_QUERY = 2000;

export interface EnrollmentFilter {
  userIds?: readonly number[];
  courseIds?: readonly number[];
}

export interface EnrollmentRow extends Enrollment {
  direct: boolean;
  by_department: boolean;
  by_group: boolean;
}

/** What a `refresh` changed: the pairs added, removed or re-dated, and each course's learner delta. */
export interface EnrollmentChange {
  pairs: { user_id: number; course_id: number }[];
  learnerDelta: Map<number, number>;
}

const key = (r: { user_id: number; course_id: number }) => `${r.user_id}:${r.course_id}`;
/** Times compare as instants (the two databases may write the same one differently). */
const sameRow = (a: EnrollmentRow, b: EnrollmentRow) =>
  Date.parse(a.enrolled_at) === Date.parse(b.enrolled_at) &&
  a.direct === b.direct &&
  a.by_department === b.by_department &&
  a.by_group === b.by_group;

export class EnrollmentRepository {
  /** Any executor: the services' unit of work, or a seeder's own transaction. */
  constructor(private readonly uow: Pick<UnitOfWork, 'db'>) {}

  private get db() {
    return this.uow.db;
  }

  /**
   * Makes the stored enrollments within the filter equal to what the sources give now: rows that
   * lost their last source go, new ones come, changed ones are updated; returns what changed (for the
   * learning state, which `EnrollmentService` refreshes next). Without a filter: the whole company.
   */
  async refresh(filter: EnrollmentFilter = {}): Promise<EnrollmentChange> {
    const { userIds } = filter;
    const change: EnrollmentChange = { pairs: [], learnerDelta: new Map() };
    if (userIds?.length === 0 || filter.courseIds?.length === 0) return change;
    // One change whatever the passes: the learning state then locks every course of it in one order
    // (progress/locks.ts) instead of one pass's courses after another's.
    if (userIds && userIds.length > USERS_PER_QUERY) {
      for (let i = 0; i < userIds.length; i += USERS_PER_QUERY)
        await this.refreshPass({ ...filter, userIds: userIds.slice(i, i + USERS_PER_QUERY) }, change);
    } else await this.refreshPass(filter, change);
    return change;
  }

  /** One pass of `refresh`, adding what it changed to `change`. */
  private async refreshPass(filter: EnrollmentFilter, change: EnrollmentChange): Promise<void> {
    const wanted = new Map((await this.derive(filter)).map((r) => [key(r), r]));
    const stored = await this.stored(filter);
    const gone = stored.filter((r) => !wanted.has(key(r)));
    const storedByKey = new Map(stored.map((r) => [key(r), r]));
    const fresh: EnrollmentRow[] = [];
    const changed: EnrollmentRow[] = [];
    for (const [k, row] of wanted) {
      const old = storedByKey.get(k);
      if (!old) fresh.push(row);
      else if (!sameRow(old, row)) changed.push(row);
    }
    const byUser = new Map<number, number[]>();
    for (const r of gone) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.course_id]);
    for (const [user, courses] of byUser)
      await this.db.deleteFrom('enrollments').where('user_id', '=', user).where('course_id', 'in', courses).execute();
    for (let i = 0; i < fresh.length; i += 500)
      await this.db
        .insertInto('enrollments')
        .values(fresh.slice(i, i + 500))
        .execute();
    for (const r of changed)
      await this.db
        .updateTable('enrollments')
        .set({ enrolled_at: r.enrolled_at, direct: r.direct, by_department: r.by_department, by_group: r.by_group })
        .where('user_id', '=', r.user_id)
        .where('course_id', '=', r.course_id)
        .execute();
    const delta = change.learnerDelta;
    for (const r of fresh) delta.set(r.course_id, (delta.get(r.course_id) ?? 0) + 1);
    for (const r of gone) delta.set(r.course_id, (delta.get(r.course_id) ?? 0) - 1);
    for (const { user_id, course_id } of [...fresh, ...gone, ...changed]) change.pairs.push({ user_id, course_id });
  }

  /** The stored enrollments; one query per 2000 users. Omit a filter to take all. */
  async list(filter: EnrollmentFilter = {}): Promise<Enrollment[]> {
    return (await this.stored(filter)).map(({ user_id, course_id, enrolled_at }) => ({
      user_id,
      course_id,
      enrolled_at,
    }));
  }

  /**
   * Whether a live member of the department other than `except` is enrolled in one of the courses
   * (a manager's team, analytics/team.ts). The department's people come by its index and each one's
   * enrollments by the primary key, inside EXISTS so that the walk starts from the department: the
   * cost grows with the department, never with the company or a course's learners.
   */
  async departmentEnrolledInAny(departmentId: number, except: number, courseIds: readonly number[]): Promise<boolean> {
    if (courseIds.length === 0) return false;
    const row = await this.db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.department_id', '=', departmentId)
      .where('u.deleted_at', 'is', null)
      .where('u.id', '<>', except)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('enrollments as e')
            .select('e.user_id')
            .whereRef('e.user_id', '=', 'u.id')
            .where('e.course_id', 'in', courseIds),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Number of enrolled users per course (the cards' student counter), by index. */
  async countByCourse(courseIds: readonly number[]): Promise<Map<number, number>> {
    if (courseIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('enrollments')
      .select(['course_id', (eb) => eb.fn.countAll<number | string>().as('students')])
      .where('course_id', 'in', courseIds)
      .groupBy('course_id')
      .execute();
    return new Map(rows.map((r) => [r.course_id, Number(r.students)]));
  }

  private async stored(filter: EnrollmentFilter): Promise<EnrollmentRow[]> {
    const { userIds, courseIds } = filter;
    if (userIds?.length === 0 || courseIds?.length === 0) return [];
    if (userIds && userIds.length > USERS_PER_QUERY) {
      const out: EnrollmentRow[] = [];
      for (let i = 0; i < userIds.length; i += USERS_PER_QUERY)
        out.push(...(await this.stored({ ...filter, userIds: userIds.slice(i, i + USERS_PER_QUERY) })));
      return out;
    }
    let q = this.db
      .selectFrom('enrollments')
      .select(['user_id', 'course_id', 'enrolled_at', 'direct', 'by_department', 'by_group']);
    if (userIds) q = q.where('user_id', 'in', userIds);
    if (courseIds) q = q.where('course_id', 'in', courseIds);
    return q.orderBy('user_id').orderBy('course_id').execute();
  }

  /**
   * What the sources give now (the rule the table keeps), set-based: the filters go into each
   * branch so that the database uses its indexes. Public for the test that compares the two.
   */
  async derive(filter: EnrollmentFilter = {}): Promise<EnrollmentRow[]> {
    const { userIds, courseIds } = filter;
    if (userIds?.length === 0 || courseIds?.length === 0) return [];
    if (userIds && userIds.length > USERS_PER_QUERY) {
      const out: EnrollmentRow[] = [];
      for (let i = 0; i < userIds.length; i += USERS_PER_QUERY)
        out.push(...(await this.derive({ ...filter, userIds: userIds.slice(i, i + USERS_PER_QUERY) })));
      return out;
    }
    const rows = await this.db
      .selectFrom(this.sources(filter).as('s'))
      .select([
        's.user_id',
        's.course_id',
        (eb) => eb.fn.min<string>('s.at').as('enrolled_at'),
        (eb) => eb.fn.max<number>('s.d').as('direct'),
        (eb) => eb.fn.max<number>('s.dep').as('by_department'),
        (eb) => eb.fn.max<number>('s.g').as('by_group'),
      ])
      .groupBy(['s.user_id', 's.course_id'])
      .orderBy('s.user_id')
      .orderBy('s.course_id')
      .execute();
    return rows.map((r) => ({
      user_id: r.user_id,
      course_id: r.course_id,
      enrolled_at: r.enrolled_at,
      direct: Number(r.direct) === 1,
      by_department: Number(r.by_department) === 1,
      by_group: Number(r.by_group) === 1,
    }));
  }

  /** Every (user, course, time, source) an assignment gives, from the three sources. */
  private sources({ userIds, courseIds }: EnrollmentFilter) {
    const flags = (d: number, dep: number, g: number) =>
      [
        sql<number>`${sql.lit(d)}`.as('d'),
        sql<number>`${sql.lit(dep)}`.as('dep'),
        sql<number>`${sql.lit(g)}`.as('g'),
      ] as const;
    let direct = this.db
      .selectFrom('user_courses')
      .select(['user_id', 'course_id', 'assigned_at as at', ...flags(1, 0, 0)]);
    let department = this.db
      .selectFrom('department_courses as dc')
      .innerJoin('users as u', 'u.department_id', 'dc.department_id')
      .where('u.deleted_at', 'is', null)
      .select([
        'u.id as user_id',
        'dc.course_id',
        // A newcomer to the department is enrolled from the day they joined it.
        sql<string>`case when coalesce(u.department_assigned_at, u.created_at) > dc.assigned_at
          then coalesce(u.department_assigned_at, u.created_at) else dc.assigned_at end`.as('at'),
        ...flags(0, 1, 0),
      ]);
    let group = this.db
      .selectFrom('group_courses as gc')
      .innerJoin('group_users as gu', 'gu.group_id', 'gc.group_id')
      // Membership that began after the course was given to the group counts from the joining.
      .select([
        'gu.user_id',
        'gc.course_id',
        sql<string>`case when gu.added_at > gc.assigned_at then gu.added_at else gc.assigned_at end`.as('at'),
        ...flags(0, 0, 1),
      ]);
    if (userIds) {
      direct = direct.where('user_id', 'in', userIds);
      department = department.where('u.id', 'in', userIds);
      group = group.where('gu.user_id', 'in', userIds);
    }
    if (courseIds) {
      direct = direct.where('course_id', 'in', courseIds);
      department = department.where('dc.course_id', 'in', courseIds);
      group = group.where('gc.course_id', 'in', courseIds);
    }
    return direct.unionAll(department).unionAll(group);
  }
}
