import type { UnitOfWork } from '../../db/unitOfWork.js';
import { liveCourse } from '../courses/live.js';

/**
 * The enrollment sources (docs/rules.md §Enrollment): direct assignments (`user_courses`), the
 * departments' courses (`department_courses`), the study groups' members and courses (`group_users`,
 * `group_courses`). Written here only, by `EnrollmentService`, which makes the kept enrollments and
 * learning states follow in the same transaction. A link that stays keeps its time: it decides when
 * the enrollment began.
 */
/** What replacing a course set changed: the course ids added and removed. */
export interface SetChange {
  added: number[];
  removed: number[];
}

/** The sources that hold one course. */
export interface CourseHolders {
  departmentIds: number[];
  groupIds: number[];
  userIds: number[];
}

export class EnrollmentSources {
  constructor(private readonly uow: Pick<UnitOfWork, 'db'>) {}

  private get db() {
    return this.uow.db;
  }

  /** The live courses assigned to the user directly, by title. */
  directCourses(userId: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('user_courses')
      .innerJoin('courses', 'courses.id', 'user_courses.course_id')
      .select(['courses.id', 'courses.title as name'])
      .where('user_courses.user_id', '=', userId)
      .where(liveCourse('courses'))
      .orderBy('courses.title')
      .execute();
  }

  /** Adds direct assignments; one already there keeps its original time. Returns the courses new to the user. */
  async attachToUser(userId: number, courseIds: readonly number[], now: string): Promise<number[]> {
    if (courseIds.length === 0) return [];
    const rows = await this.db
      .insertInto('user_courses')
      .values(courseIds.map((course_id) => ({ user_id: userId, course_id, assigned_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .returning('course_id')
      .execute();
    return rows.map((r) => r.course_id);
  }

  /** Ends direct assignments; returns the courses the user had. */
  async detachFromUser(userId: number, courseIds: readonly number[]): Promise<number[]> {
    if (courseIds.length === 0) return [];
    const rows = await this.db
      .deleteFrom('user_courses')
      .where('user_id', '=', userId)
      .where('course_id', 'in', courseIds)
      .returning('course_id')
      .execute();
    return rows.map((r) => r.course_id);
  }

  /** Replaces the department's course set; returns the courses added and removed. */
  async setDepartmentCourses(departmentId: number, courseIds: readonly number[], now: string): Promise<SetChange> {
    let remove = this.db.deleteFrom('department_courses').where('department_id', '=', departmentId);
    if (courseIds.length > 0) remove = remove.where('course_id', 'not in', courseIds);
    const removed = await remove.returning('course_id').execute();
    if (courseIds.length === 0) return { added: [], removed: removed.map((r) => r.course_id) };
    const added = await this.db
      .insertInto('department_courses')
      .values(courseIds.map((course_id) => ({ department_id: departmentId, course_id, assigned_at: now })))
      .onConflict((oc) => oc.columns(['department_id', 'course_id']).doNothing())
      .returning('course_id')
      .execute();
    return { added: added.map((r) => r.course_id), removed: removed.map((r) => r.course_id) };
  }

  /** Replaces the group's members and courses; returns the courses added and removed. */
  async setGroupLinks(
    groupId: number,
    links: { userIds: readonly number[]; courseIds: readonly number[] },
    now: string,
  ): Promise<SetChange> {
    const { userIds, courseIds } = links;
    let dropUsers = this.db.deleteFrom('group_users').where('group_id', '=', groupId);
    if (userIds.length > 0) dropUsers = dropUsers.where('user_id', 'not in', userIds);
    await dropUsers.execute();
    let dropCourses = this.db.deleteFrom('group_courses').where('group_id', '=', groupId);
    if (courseIds.length > 0) dropCourses = dropCourses.where('course_id', 'not in', courseIds);
    const removed = await dropCourses.returning('course_id').execute();
    if (userIds.length > 0)
      await this.db
        .insertInto('group_users')
        .values(userIds.map((user_id) => ({ group_id: groupId, user_id, added_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    const added =
      courseIds.length === 0
        ? []
        : await this.db
            .insertInto('group_courses')
            .values(courseIds.map((course_id) => ({ group_id: groupId, course_id, assigned_at: now })))
            .onConflict((oc) => oc.columns(['group_id', 'course_id']).doNothing())
            .returning('course_id')
            .execute();
    return { added: added.map((r) => r.course_id), removed: removed.map((r) => r.course_id) };
  }

  /** Every link of the courses (deleted courses). */
  async dropCourses(courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db.deleteFrom('user_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('department_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('group_courses').where('course_id', 'in', courseIds).execute();
  }

  /** Every course link of the department (a deleted department); returns the courses it had. */
  async dropDepartment(departmentId: number): Promise<number[]> {
    const rows = await this.db
      .deleteFrom('department_courses')
      .where('department_id', '=', departmentId)
      .returning('course_id')
      .execute();
    return rows.map((r) => r.course_id);
  }

  /** Every member and course link of the group (a deleted group); returns the courses it had. */
  async dropGroup(groupId: number): Promise<number[]> {
    await this.db.deleteFrom('group_users').where('group_id', '=', groupId).execute();
    const rows = await this.db
      .deleteFrom('group_courses')
      .where('group_id', '=', groupId)
      .returning('course_id')
      .execute();
    return rows.map((r) => r.course_id);
  }

  /** The user's direct assignments and group memberships (a deleted user). */
  async dropUser(userId: number): Promise<void> {
    await this.db.deleteFrom('user_courses').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('group_users').where('user_id', '=', userId).execute();
  }

  /** Live members of a department (whose enrollments its courses decide). */
  async departmentMembers(departmentId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('department_id', '=', departmentId)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Live members of the departments. */
  async departmentsMembers(departmentIds: readonly number[]): Promise<number[]> {
    if (departmentIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('department_id', 'in', departmentIds)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Members of the study groups (each member once). */
  async groupsMembers(groupIds: readonly number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('group_users')
      .select('user_id')
      .distinct()
      .where('group_id', 'in', groupIds)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /**
   * The number of members of every study group that has any. A deleted user's memberships end with
   * the deletion (docs/rules.md §Deletion), so every member counted is live.
   */
  async groupMemberCounts(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('group_users')
      .select(['group_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('group_id')
      .execute();
    return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
  }

  /** Who holds the course as a source: its departments, its groups and its directly assigned users. */
  async courseHolders(courseId: number): Promise<CourseHolders> {
    const [departments, groups, users] = await Promise.all([
      this.db.selectFrom('department_courses').select('department_id').where('course_id', '=', courseId).execute(),
      this.db.selectFrom('group_courses').select('group_id').where('course_id', '=', courseId).execute(),
      this.db.selectFrom('user_courses').select('user_id').where('course_id', '=', courseId).execute(),
    ]);
    return {
      departmentIds: departments.map((r) => r.department_id),
      groupIds: groups.map((r) => r.group_id),
      userIds: users.map((r) => r.user_id),
    };
  }

  /** The course given to departments (one that has it keeps its time); returns those it was new to. */
  async addCourseToDepartments(courseId: number, departmentIds: readonly number[], now: string): Promise<number[]> {
    if (departmentIds.length === 0) return [];
    const rows = await this.db
      .insertInto('department_courses')
      .values(departmentIds.map((department_id) => ({ department_id, course_id: courseId, assigned_at: now })))
      .onConflict((oc) => oc.columns(['department_id', 'course_id']).doNothing())
      .returning('department_id')
      .execute();
    return rows.map((r) => r.department_id);
  }

  /** Whether the department had the course. */
  async removeCourseFromDepartment(courseId: number, departmentId: number): Promise<boolean> {
    const rows = await this.db
      .deleteFrom('department_courses')
      .where('department_id', '=', departmentId)
      .where('course_id', '=', courseId)
      .returning('course_id')
      .execute();
    return rows.length > 0;
  }

  /** The course given to study groups (one that has it keeps its time); returns those it was new to. */
  async addCourseToGroups(courseId: number, groupIds: readonly number[], now: string): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .insertInto('group_courses')
      .values(groupIds.map((group_id) => ({ group_id, course_id: courseId, assigned_at: now })))
      .onConflict((oc) => oc.columns(['group_id', 'course_id']).doNothing())
      .returning('group_id')
      .execute();
    return rows.map((r) => r.group_id);
  }

  /** Whether the group had the course. */
  async removeCourseFromGroup(courseId: number, groupId: number): Promise<boolean> {
    const rows = await this.db
      .deleteFrom('group_courses')
      .where('group_id', '=', groupId)
      .where('course_id', '=', courseId)
      .returning('course_id')
      .execute();
    return rows.length > 0;
  }

  /** The course assigned directly to users (one who has it keeps its time); returns those it was new to. */
  async assignCourseToUsers(courseId: number, userIds: readonly number[], now: string): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .insertInto('user_courses')
      .values(userIds.map((user_id) => ({ user_id, course_id: courseId, assigned_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .returning('user_id')
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** Members of a study group. */
  async groupMembers(groupId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('group_users').select('user_id').where('group_id', '=', groupId).execute();
    return rows.map((r) => r.user_id);
  }
}
