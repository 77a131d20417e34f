import type { UnitOfWork } from '../../db/unitOfWork.js';
import { liveCourse } from '../courses/live.js';

/**
 * The enrollment sources (docs/rules.md §Enrollment): direct assignments (`user_courses`), the
 * departments' courses (`department_courses`), the study groups' members and courses (`group_users`,
 * `group_courses`). Written here only, by `EnrollmentService`, which makes the kept enrollments and
 * learning states follow in the same transaction. A link that stays keeps its time: it decides when
 * the enrollment began.
 */
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

  /** Adds direct assignments; one already there keeps its original time. */
  async attachToUser(userId: number, courseIds: readonly number[], now: string): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db
      .insertInto('user_courses')
      .values(courseIds.map((course_id) => ({ user_id: userId, course_id, assigned_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute();
  }

  async detachFromUser(userId: number, courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db
      .deleteFrom('user_courses')
      .where('user_id', '=', userId)
      .where('course_id', 'in', courseIds)
      .execute();
  }

  /** Replaces the department's course set. */
  async setDepartmentCourses(departmentId: number, courseIds: readonly number[], now: string): Promise<void> {
    let remove = this.db.deleteFrom('department_courses').where('department_id', '=', departmentId);
    if (courseIds.length > 0) remove = remove.where('course_id', 'not in', courseIds);
    await remove.execute();
    if (courseIds.length === 0) return;
    await this.db
      .insertInto('department_courses')
      .values(courseIds.map((course_id) => ({ department_id: departmentId, course_id, assigned_at: now })))
      .onConflict((oc) => oc.columns(['department_id', 'course_id']).doNothing())
      .execute();
  }

  /** Replaces the group's members and courses. */
  async setGroupLinks(
    groupId: number,
    links: { userIds: readonly number[]; courseIds: readonly number[] },
    now: string,
  ): Promise<void> {
    const { userIds, courseIds } = links;
    let dropUsers = this.db.deleteFrom('group_users').where('group_id', '=', groupId);
    if (userIds.length > 0) dropUsers = dropUsers.where('user_id', 'not in', userIds);
    await dropUsers.execute();
    let dropCourses = this.db.deleteFrom('group_courses').where('group_id', '=', groupId);
    if (courseIds.length > 0) dropCourses = dropCourses.where('course_id', 'not in', courseIds);
    await dropCourses.execute();
    if (userIds.length > 0)
      await this.db
        .insertInto('group_users')
        .values(userIds.map((user_id) => ({ group_id: groupId, user_id, added_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    if (courseIds.length > 0)
      await this.db
        .insertInto('group_courses')
        .values(courseIds.map((course_id) => ({ group_id: groupId, course_id, assigned_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'course_id']).doNothing())
        .execute();
  }

  /** Every link of the courses (deleted courses). */
  async dropCourses(courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db.deleteFrom('user_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('department_courses').where('course_id', 'in', courseIds).execute();
    await this.db.deleteFrom('group_courses').where('course_id', 'in', courseIds).execute();
  }

  /** Every course link of the department (a deleted department). */
  async dropDepartment(departmentId: number): Promise<void> {
    await this.db.deleteFrom('department_courses').where('department_id', '=', departmentId).execute();
  }

  /** Every member and course link of the group (a deleted group). */
  async dropGroup(groupId: number): Promise<void> {
    await this.db.deleteFrom('group_users').where('group_id', '=', groupId).execute();
    await this.db.deleteFrom('group_courses').where('group_id', '=', groupId).execute();
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

  /** Members of a study group. */
  async groupMembers(groupId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('group_users').select('user_id').where('group_id', '=', groupId).execute();
    return rows.map((r) => r.user_id);
  }
}
