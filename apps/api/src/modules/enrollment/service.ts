import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { LearningStates } from '../progress/states.js';
import type { EnrollmentFilter, EnrollmentRepository } from './repository.js';
import type { EnrollmentSources } from './sources.js';

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

  /** Direct assignments added (one already there keeps its time); the user's enrollments follow. */
  assignToUser(userId: number, courseIds: readonly number[], now: string): Promise<void> {
    return this.atomically(async () => {
      await this.sources.attachToUser(userId, courseIds, now);
      await this.refresh({ userIds: [userId] });
    });
  }

  unassignFromUser(userId: number, courseIds: readonly number[]): Promise<void> {
    return this.atomically(async () => {
      await this.sources.detachFromUser(userId, courseIds);
      await this.refresh({ userIds: [userId] });
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

  /** The department's course set becomes `courseIds`; its members' enrollments follow. */
  setDepartmentCourses(departmentId: number, courseIds: readonly number[], now: string): Promise<void> {
    return this.atomically(async () => {
      await this.sources.setDepartmentCourses(departmentId, courseIds, now);
      await this.refresh({ userIds: await this.sources.departmentMembers(departmentId) });
    });
  }

  /** Before a department is deleted: its courses' assignments end for its members. */
  departmentDeleted(departmentId: number): Promise<void> {
    return this.atomically(async () => {
      const members = await this.sources.departmentMembers(departmentId);
      await this.sources.dropDepartment(departmentId);
      await this.refresh({ userIds: members });
    });
  }

  /** The group's members and courses become these; the enrollments of everyone in or out follow. */
  setGroup(groupId: number, links: { userIds: readonly number[]; courseIds: readonly number[] }, now: string) {
    return this.atomically(async () => {
      const before = await this.sources.groupMembers(groupId);
      await this.sources.setGroupLinks(groupId, links, now);
      await this.refresh({ userIds: [...new Set([...before, ...links.userIds])] });
    });
  }

  /** Before a group is deleted: its members leave it and its courses' assignments end. */
  groupDeleted(groupId: number): Promise<void> {
    return this.atomically(async () => {
      const members = await this.sources.groupMembers(groupId);
      await this.sources.dropGroup(groupId);
      await this.refresh({ userIds: members });
    });
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
