import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { LearningStates } from '../progress/states.js';
import type { EnrollmentFilter, EnrollmentRepository } from './repository.js';
import type { CourseHolders, EnrollmentSources, SetChange } from './sources.js';

/**
 * Enrollment (docs/rules.md §Enrollment): the one writer of its sources (direct assignments, department courses,
 * group members and courses; sources.ts). Every change of a source is followed, in the same
 * transaction, by the stored enrollments of the people it touched (repository.ts) and then, called
 * from here, by their learning states and the courses' learner counts (progress/states.ts). The
 * services of users, departments, groups and courses call it inside their own unit of work; a call
 * outside one opens its own, so the three tables never disagree after a commit.
 */
export class EnrollmentService {
  constructor(
    /** The app's unit of work, or a seeder's executor (which is its transaction already). */
    private readonly uow: Pick<UnitOfWork, 'db'> & Partial<Pick<UnitOfWork, 'run'>>,
    private readonly sources: EnrollmentSources,
    private readonly enrollments: EnrollmentRepository,
    private readonly states: Pick<LearningStates, 'enrollmentsChanged'>,
  ) {}

  private atomically<T>(work: () => Promise<T>): Promise<T> {
    return this.uow.run ? this.uow.run(work) : work();
  }

  /** The live courses assigned to the user directly, by title. */
  directCourses(userId: number): Promise<{ id: number; name: string }[]> {
    return this.sources.directCourses(userId);
  }

  /**
   * Direct assignments added (one already there keeps its time); the user's enrollments follow.
   * Returns the courses new to the user (what the audit records).
   */
  assignToUser(userId: number, courseIds: readonly number[], now: string): Promise<number[]> {
    return this.atomically(async () => {
      const added = await this.sources.attachToUser(userId, courseIds, now);
      await this.refresh({ userIds: [userId] });
      return added;
    });
  }

  /** Direct assignments ended; returns the courses the user had. */
  unassignFromUser(userId: number, courseIds: readonly number[]): Promise<number[]> {
    return this.atomically(async () => {
      const removed = await this.sources.detachFromUser(userId, courseIds);
      await this.refresh({ userIds: [userId] });
      return removed;
    });
  }

  /**
   * The user's department changed (`users.department_id`, written by the users module): the courses
   * of their old and new department follow.
   */
  userMoved(userId: number): Promise<void> {
    return this.refresh({ userIds: [userId] });
  }

  /** Users added or moved between departments in bulk (an import): their enrollments follow, set-based. */
  usersChanged(userIds: readonly number[]): Promise<void> {
    return userIds.length === 0 ? Promise.resolve() : this.refresh({ userIds });
  }

  /** Deleted users' direct assignments and group memberships end (their records stay). */
  usersDeleted(userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return Promise.resolve();
    return this.atomically(async () => {
      for (const userId of userIds) await this.sources.dropUser(userId);
      await this.refresh({ userIds });
    });
  }

  /** A deleted user's direct assignments and group memberships end (their records stay). */
  userDeleted(userId: number): Promise<void> {
    return this.atomically(async () => {
      await this.sources.dropUser(userId);
      await this.refresh({ userIds: [userId] });
    });
  }

  /**
   * The department's course set becomes `courseIds`; its members' enrollments follow. Returns the
   * courses added and removed (a course it keeps keeps its time and is neither).
   */
  setDepartmentCourses(departmentId: number, courseIds: readonly number[], now: string): Promise<SetChange> {
    return this.atomically(async () => {
      const change = await this.sources.setDepartmentCourses(departmentId, courseIds, now);
      await this.refresh({ userIds: await this.sources.departmentMembers(departmentId) });
      return change;
    });
  }

  /** Before a department is deleted: its courses' assignments end for its members; returns those courses. */
  departmentDeleted(departmentId: number): Promise<number[]> {
    return this.atomically(async () => {
      const members = await this.sources.departmentMembers(departmentId);
      const removed = await this.sources.dropDepartment(departmentId);
      await this.refresh({ userIds: members });
      return removed;
    });
  }

  /**
   * The group's members and courses become these; the enrollments of everyone in or out follow.
   * Returns the courses added and removed.
   */
  setGroup(
    groupId: number,
    links: { userIds: readonly number[]; courseIds: readonly number[] },
    now: string,
  ): Promise<SetChange> {
    return this.atomically(async () => {
      const before = await this.sources.groupMembers(groupId);
      const change = await this.sources.setGroupLinks(groupId, links, now);
      await this.refresh({ userIds: [...new Set([...before, ...links.userIds])] });
      return change;
    });
  }

  /** Before a group is deleted: its members leave it and its courses' assignments end; returns those courses. */
  groupDeleted(groupId: number): Promise<number[]> {
    return this.atomically(async () => {
      const members = await this.sources.groupMembers(groupId);
      const removed = await this.sources.dropGroup(groupId);
      await this.refresh({ userIds: members });
      return removed;
    });
  }

  // ── One course at a time (the course's own 'Назначение'): the same rows as the settings tabs. ──

  /** The departments, groups and users that hold the course. */
  courseHolders(courseId: number): Promise<CourseHolders> {
    return this.sources.courseHolders(courseId);
  }

  /** The number of members of every study group that has any. */
  groupMemberCounts(): Promise<Map<number, number>> {
    return this.sources.groupMemberCounts();
  }

  /** Distinct users enrolled in the course from any source (deleted users have none). */
  async learnerCount(courseId: number): Promise<number> {
    return (await this.enrollments.countByCourse([courseId])).get(courseId) ?? 0;
  }

  /**
   * The course added to the departments' sets (a department that has it keeps its time); their
   * members' enrollments in it follow. Returns the departments it was new to.
   */
  addCourseToDepartments(courseId: number, departmentIds: readonly number[], now: string): Promise<number[]> {
    return this.atomically(async () => {
      const added = await this.sources.addCourseToDepartments(courseId, departmentIds, now);
      await this.refreshCourse(courseId, await this.sources.departmentsMembers(added));
      return added;
    });
  }

  /** The course taken from the department's set; returns whether it had it. */
  removeCourseFromDepartment(courseId: number, departmentId: number): Promise<boolean> {
    return this.atomically(async () => {
      const removed = await this.sources.removeCourseFromDepartment(courseId, departmentId);
      if (removed) await this.refreshCourse(courseId, await this.sources.departmentMembers(departmentId));
      return removed;
    });
  }

  /** The course added to the groups' sets; returns the groups it was new to. */
  addCourseToGroups(courseId: number, groupIds: readonly number[], now: string): Promise<number[]> {
    return this.atomically(async () => {
      const added = await this.sources.addCourseToGroups(courseId, groupIds, now);
      await this.refreshCourse(courseId, await this.sources.groupsMembers(added));
      return added;
    });
  }

  /** The course taken from the group's set; returns whether it had it. */
  removeCourseFromGroup(courseId: number, groupId: number): Promise<boolean> {
    return this.atomically(async () => {
      const removed = await this.sources.removeCourseFromGroup(courseId, groupId);
      if (removed) await this.refreshCourse(courseId, await this.sources.groupMembers(groupId));
      return removed;
    });
  }

  /** The course assigned directly to the users (one who has it keeps its time); returns those it was new to. */
  assignCourseToUsers(courseId: number, userIds: readonly number[], now: string): Promise<number[]> {
    return this.atomically(async () => {
      const added = await this.sources.assignCourseToUsers(courseId, userIds, now);
      await this.refreshCourse(courseId, added);
      return added;
    });
  }

  /** Only the course changed, and only for these people: the refresh reads no more than that. */
  private refreshCourse(courseId: number, userIds: readonly number[]): Promise<void> {
    return userIds.length === 0 ? Promise.resolve() : this.refresh({ userIds, courseIds: [courseId] });
  }

  /** Deleted courses' assignments end: their enrollments go, their learners' records stay. */
  coursesDeleted(courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return Promise.resolve();
    return this.atomically(async () => {
      await this.sources.dropCourses(courseIds);
      await this.refresh({ courseIds });
    });
  }

  /**
   * The stored enrollments within the filter made equal to the sources, then the learning states
   * and learner counts of what changed. Without a filter: the whole company (seeders, which write
   * the sources themselves in bulk, with their own times).
   */
  refresh(filter: EnrollmentFilter = {}): Promise<void> {
    return this.atomically(async () => {
      const change = await this.enrollments.refresh(filter);
      await this.states.enrollmentsChanged(change);
    });
  }
}
