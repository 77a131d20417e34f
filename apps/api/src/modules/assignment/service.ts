import {
  ASSIGNMENT_CANDIDATES_MAX,
  ASSIGNMENT_MESSAGES as AM,
  ASSIGNMENT_USERS_SHOWN,
  CONSTRUCTOR_MESSAGES,
  assignmentMessages,
  type AssignmentCandidate,
  type AssignmentHolder,
  type CourseAssignment,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import { manualBy, type Actor, type AssignmentHolder as AuditHolder, type AuditService } from '../audit/service.js';
import { fullName } from '../auth/permissions.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { DepartmentsRepository } from '../departments/repository.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { GroupsRepository } from '../groups/repository.js';
import type { UsersRepository } from '../users/repository.js';
import type { UsersService } from '../users/service.js';

/** What an add or a removal answers: the message and the assignment as it is now. */
export interface AssignmentChange {
  message: string;
  assignment: CourseAssignment;
}

type Named = { id: number; name: string };

/**
 * A course's assignment from the course itself (docs/product.md §Course settings, 'Назначение'): its
 * departments, study groups and directly assigned employees, added and removed one holder at a time.
 * It owns no table: the links are the enrollment module's (`EnrollmentService`, the one writer, which
 * refreshes enrollments and learning states in this transaction), so the settings tabs and this
 * section read and write the same rows and always agree. Names come from their owners' repositories.
 * Every change is recorded in the audit of people changes in the same transaction.
 */
export class AssignmentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly courses: CoursesRepository,
    private readonly departments: DepartmentsRepository,
    private readonly groups: GroupsRepository,
    private readonly users: UsersRepository,
    private readonly people: Pick<UsersService, 'page'>,
    private readonly enrollment: EnrollmentService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** The live course (404 otherwise; deleted courses are not assigned). */
  private async course(courseId: number): Promise<Named> {
    const row = (await this.courses.titles([courseId]))[0];
    if (!row) throw notFound(CONSTRUCTOR_MESSAGES.courseNotFound);
    return { id: row.id, name: row.title };
  }

  async view(courseId: number): Promise<CourseAssignment> {
    const course = await this.course(courseId);
    const [holders, departments, groups, departmentCounts, groupCounts, learners] = await Promise.all([
      this.enrollment.courseHolders(courseId),
      this.departments.names(),
      this.groups.names(),
      this.users.countByDepartment(),
      this.enrollment.groupMemberCounts(),
      this.enrollment.learnerCount(courseId),
    ]);
    const counted = (rows: Named[], counts: Map<number, number>): AssignmentHolder[] =>
      rows.map((r) => ({ id: r.id, name: r.name, members: counts.get(r.id) ?? 0 }));
    const allDepartments = counted(departments, departmentCounts);
    const allGroups = counted(groups, groupCounts);
    const users = await this.users.shownByIds(holders.userIds, ASSIGNMENT_USERS_SHOWN);
    const departmentIds = new Set(holders.departmentIds);
    const groupIds = new Set(holders.groupIds);
    return {
      course,
      learners,
      departments: allDepartments.filter((d) => departmentIds.has(d.id)),
      groups: allGroups.filter((g) => groupIds.has(g.id)),
      users: users.map((u) => ({ id: u.id, name: fullName(u), email: u.email, department: u.department_name })),
      users_total: holders.userIds.length,
      choices: { departments: allDepartments, groups: allGroups },
    };
  }

  /**
   * Runs an add or a removal in one transaction and answers with the assignment as it is after it
   * (read once the change is committed, so the transaction stays short).
   */
  private async change(courseId: number, work: (course: Named, now: string) => Promise<string>) {
    const message = await this.uow.run(async () => work(await this.course(courseId), iso(this.clock.now())));
    return { message, assignment: await this.view(courseId) };
  }

  /** Records one entry per holder the course was given to or taken from. */
  private async record(actor: Actor, course: Named, holders: AuditHolder[], how: 'added' | 'removed') {
    for (const holder of holders) {
      const courses = [course];
      await this.audit.assignments(manualBy(actor), holder, {
        added: how === 'added' ? courses : [],
        removed: how === 'removed' ? courses : [],
      });
    }
  }

  /** Those of `ids` that are departments (422 when one is not). */
  private async chosenDepartments(ids: readonly number[]): Promise<Named[]> {
    const wanted = new Set(ids);
    const found = (await this.departments.names()).filter((d) => wanted.has(d.id));
    if (found.length !== wanted.size)
      throw unprocessable(AM.departmentMissing, { department_ids: [AM.departmentMissing] });
    return found;
  }

  private async chosenGroups(ids: readonly number[]): Promise<Named[]> {
    const wanted = new Set(ids);
    const found = (await this.groups.names()).filter((g) => wanted.has(g.id));
    if (found.length !== wanted.size) throw unprocessable(AM.groupMissing, { group_ids: [AM.groupMissing] });
    return found;
  }

  private async chosenUsers(ids: readonly number[]): Promise<Named[]> {
    const unique = [...new Set(ids)];
    const found = await this.users.shownByIds(unique, unique.length);
    if (found.length !== unique.length) throw unprocessable(AM.userMissing, { user_ids: [AM.userMissing] });
    return found.map((u) => ({ id: u.id, name: fullName(u) }));
  }

  /** The course given to departments; one that has it keeps it as it was (and nothing is recorded). */
  addDepartments(actor: Actor, courseId: number, ids: readonly number[]): Promise<AssignmentChange> {
    return this.change(courseId, async (course, now) => {
      const chosen = await this.chosenDepartments(ids);
      const added = new Set(
        await this.enrollment.addCourseToDepartments(
          course.id,
          chosen.map((d) => d.id),
          now,
        ),
      );
      const fresh = chosen.filter((d) => added.has(d.id));
      await this.record(
        actor,
        course,
        fresh.map((d) => ({ kind: 'department', ...d })),
        'added',
      );
      return assignmentMessages.departmentsAdded(chosen.map((d) => d.name));
    });
  }

  /** The course taken from a department: its members' enrollments through it end, their records stay. */
  removeDepartment(actor: Actor, courseId: number, departmentId: number): Promise<AssignmentChange> {
    return this.change(courseId, async (course) => {
      const department = (await this.departments.names()).find((d) => d.id === departmentId);
      if (!department) throw notFound(AM.departmentMissing);
      if (await this.enrollment.removeCourseFromDepartment(course.id, department.id))
        await this.record(actor, course, [{ kind: 'department', ...department }], 'removed');
      return assignmentMessages.departmentRemoved(department.name);
    });
  }

  addGroups(actor: Actor, courseId: number, ids: readonly number[]): Promise<AssignmentChange> {
    return this.change(courseId, async (course, now) => {
      const chosen = await this.chosenGroups(ids);
      const added = new Set(
        await this.enrollment.addCourseToGroups(
          course.id,
          chosen.map((g) => g.id),
          now,
        ),
      );
      const fresh = chosen.filter((g) => added.has(g.id));
      await this.record(
        actor,
        course,
        fresh.map((g) => ({ kind: 'group', ...g })),
        'added',
      );
      return assignmentMessages.groupsAdded(chosen.map((g) => g.name));
    });
  }

  removeGroup(actor: Actor, courseId: number, groupId: number): Promise<AssignmentChange> {
    return this.change(courseId, async (course) => {
      const group = (await this.groups.names()).find((g) => g.id === groupId);
      if (!group) throw notFound(AM.groupMissing);
      if (await this.enrollment.removeCourseFromGroup(course.id, group.id))
        await this.record(actor, course, [{ kind: 'group', ...group }], 'removed');
      return assignmentMessages.groupRemoved(group.name);
    });
  }

  addUsers(actor: Actor, courseId: number, ids: readonly number[]): Promise<AssignmentChange> {
    return this.change(courseId, async (course, now) => {
      const chosen = await this.chosenUsers(ids);
      const added = new Set(
        await this.enrollment.assignCourseToUsers(
          course.id,
          chosen.map((u) => u.id),
          now,
        ),
      );
      const fresh = chosen.filter((u) => added.has(u.id));
      await this.record(
        actor,
        course,
        fresh.map((u) => ({ kind: 'user', ...u })),
        'added',
      );
      return assignmentMessages.usersAdded(chosen.map((u) => u.name));
    });
  }

  removeUser(actor: Actor, courseId: number, userId: number): Promise<AssignmentChange> {
    return this.change(courseId, async (course) => {
      const found = await this.users.find(userId);
      if (!found) throw notFound(AM.userMissing);
      const user = { id: found.id, name: fullName(found) };
      const removed = await this.enrollment.unassignFromUser(user.id, [course.id]);
      if (removed.length > 0) await this.record(actor, course, [{ kind: 'user', ...user }], 'removed');
      return assignmentMessages.userRemoved(user.name);
    });
  }

  /**
   * Whom to add: live employees whose name or address holds the search (the employees list's own
   * search, users/listing.ts), at most 20, each marked when the course is assigned to them directly.
   */
  async candidates(courseId: number, search: string | undefined): Promise<AssignmentCandidate[]> {
    await this.course(courseId);
    const text = search?.trim();
    const [page, holders] = await Promise.all([
      this.people.page({ page: 1, per_page: ASSIGNMENT_CANDIDATES_MAX, ...(text ? { search: text } : {}) }),
      this.enrollment.courseHolders(courseId),
    ]);
    const direct = new Set(holders.userIds);
    return page.items.map((u) => ({
      id: u.id,
      name: u.name,
      email: u.email,
      department: u.department?.name ?? null,
      assigned: direct.has(u.id),
    }));
  }
}
