import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface Enrollment {
  user_id: number;
  course_id: number;
  /** The earliest assignment among the sources (DESIGN.md §6 "Enrollment"). */
  enrolled_at: string;
}

/**
 * Enrollment is derived, never stored: a user is enrolled in a course through a direct assignment,
 * their department's courses or their groups' courses. Removing the last source ends it by itself.
 */
const USERS_PER_QUERY = 2000;

export interface EnrollmentFilter {
  userIds?: readonly number[];
  courseIds?: readonly number[];
}

export class EnrollmentRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  /** A deleted course's assignments end: its enrollments go, its learners' records stay. */
  async dropCourses(courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db.deleteFrom('user_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('department_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('group_courses').where('course_id', 'in', courseIds).execute();
  }

  /** A deleted user's direct assignments and group memberships end (their department is cleared). */
  async dropUser(userId: number): Promise<void> {
    await this.db.deleteFrom('user_courses').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('group_users').where('user_id', '=', userId).execute();
  }

  /**
   * Set-based: one query per 2000 users (the ids appear in each of the three sources, and databases
   * cap the number of parameters), for any number of courses. Omit a filter to take all.
   */
  async list(filter: EnrollmentFilter = {}): Promise<Enrollment[]> {
    const { userIds, courseIds } = filter;
    if (userIds?.length === 0 || courseIds?.length === 0) return [];
    if (userIds && userIds.length > USERS_PER_QUERY) {
      const out: Enrollment[] = [];
      for (let i = 0; i < userIds.length; i += USERS_PER_QUERY) {
        out.push(...(await this.list({ ...filter, userIds: userIds.slice(i, i + USERS_PER_QUERY) })));
      }
      return out;
    }
    return this.db
      .selectFrom(this.sources(filter).as('s'))
      .select(['s.user_id', 's.course_id', (eb) => eb.fn.min<string>('s.at').as('enrolled_at')])
      .groupBy(['s.user_id', 's.course_id'])
      .orderBy('s.user_id')
      .orderBy('s.course_id')
      .execute();
  }

  /** Number of enrolled users per course (the cards' student counter), in one query. */
  async countByCourse(courseIds: readonly number[]): Promise<Map<number, number>> {
    if (courseIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(this.sources({ courseIds }).as('s'))
      .select(['s.course_id', (eb) => eb.fn.count<number>('s.user_id').distinct().as('students')])
      .groupBy('s.course_id')
      .execute();
    return new Map(rows.map((r) => [r.course_id, Number(r.students)]));
  }

  /**
   * Every (user, course, time) an assignment gives, from the three sources. The filters go into each
   * branch so that the database uses its indexes instead of building every enrollment first.
   */
  private sources({ userIds, courseIds }: EnrollmentFilter) {
    let direct = this.db.selectFrom('user_courses').select(['user_id', 'course_id', 'assigned_at as at']);
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
      ]);
    let group = this.db
      .selectFrom('group_courses as gc')
      .innerJoin('group_users as gu', 'gu.group_id', 'gc.group_id')
      // Membership that began after the course was given to the group counts from the joining.
      .select([
        'gu.user_id',
        'gc.course_id',
        sql<string>`case when gu.added_at > gc.assigned_at then gu.added_at else gc.assigned_at end`.as('at'),
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
