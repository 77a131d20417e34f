import { z } from 'zod';
import { dbId, dbIdParam, safeText } from './common.js';
import { formatCount, type RuForms } from './plural.js';

/**
 * Assigning a course from the course itself (the constructor's course settings, 'Назначение'): the
 * departments, study groups and employees it is given to. The same assignments as the school
 * settings' departments, groups and employees tabs (docs/rules.md §Enrollment), read and written in
 * place, one holder at a time.
 */

/** '1 сотрудник', '2 сотрудника', '5 сотрудников'. */
export const EMPLOYEE_FORMS: RuForms = ['сотрудник', 'сотрудника', 'сотрудников'];
/** 'назначен 1 сотруднику', '2 сотрудникам', '5 сотрудникам'. */
export const EMPLOYEE_DATIVE_FORMS: RuForms = ['сотруднику', 'сотрудникам', 'сотрудникам'];

/** At most this many employees a search for whom to add answers. */
export const ASSIGNMENT_CANDIDATES_MAX = 20;
/** At most this many directly assigned employees are listed (by name); `users_total` counts them all. */
export const ASSIGNMENT_USERS_SHOWN = 200;
/** At most this many holders of one kind in one add. */
export const ASSIGNMENT_ADD_MAX = 1000;

const id = z.number().int().positive();

/** A department or a study group with the number of its live members. */
export const assignmentHolder = z.object({ id, name: z.string(), members: z.number().int() });
export type AssignmentHolder = z.infer<typeof assignmentHolder>;

/** An employee: name as lists show it (last name first), address and department. */
export const assignmentPerson = z.object({
  id,
  name: z.string(),
  email: z.string(),
  department: z.string().nullable(),
});
export type AssignmentPerson = z.infer<typeof assignmentPerson>;

export const courseAssignment = z.object({
  course: z.object({ id, name: z.string() }),
  /** Distinct live employees enrolled in the course from any source ('всего назначено N сотрудникам'). */
  learners: z.number().int(),
  departments: z.array(assignmentHolder),
  groups: z.array(assignmentHolder),
  /** The directly assigned employees by name, at most `ASSIGNMENT_USERS_SHOWN`. */
  users: z.array(assignmentPerson),
  users_total: z.number().int(),
  /** Every department and group (they are few), for the add controls. */
  choices: z.object({ departments: z.array(assignmentHolder), groups: z.array(assignmentHolder) }),
});
export type CourseAssignment = z.infer<typeof courseAssignment>;

/** GET /api/courses/{courseId}/assignment → result.assignment */
export const courseAssignmentResponse = z.object({
  result: z.object({ success: z.literal(true), assignment: courseAssignment }),
});

/** Every add and removal answers the message and the assignment as it is now. */
export const assignmentChangeResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string(), assignment: courseAssignment }),
});
export type AssignmentChangeResponse = z.infer<typeof assignmentChangeResponse>;

const chosen = (required: string) => z.array(dbId).min(1, required).max(ASSIGNMENT_ADD_MAX);

export const ASSIGNMENT_MESSAGES = {
  chooseDepartments: 'Выберите отделы',
  chooseGroups: 'Выберите группы',
  chooseUsers: 'Выберите сотрудников',
  departmentMissing: 'Отдел не найден',
  groupMissing: 'Группа не найдена',
  userMissing: 'Сотрудник не найден',
} as const;

/** POST /api/courses/{courseId}/assignment/departments */
export const assignDepartmentsRequest = z.object({ department_ids: chosen(ASSIGNMENT_MESSAGES.chooseDepartments) });
export type AssignDepartmentsRequest = z.input<typeof assignDepartmentsRequest>;
/** POST /api/courses/{courseId}/assignment/groups */
export const assignGroupsRequest = z.object({ group_ids: chosen(ASSIGNMENT_MESSAGES.chooseGroups) });
export type AssignGroupsRequest = z.input<typeof assignGroupsRequest>;
/** POST /api/courses/{courseId}/assignment/users */
export const assignUsersRequest = z.object({ user_ids: chosen(ASSIGNMENT_MESSAGES.chooseUsers) });
export type AssignUsersRequest = z.input<typeof assignUsersRequest>;

/** DELETE /api/courses/{courseId}/assignment/departments/{departmentId} */
export const assignedDepartmentParams = z.object({ courseId: dbIdParam, departmentId: dbIdParam });
/** DELETE /api/courses/{courseId}/assignment/groups/{groupId} */
export const assignedGroupParams = z.object({ courseId: dbIdParam, groupId: dbIdParam });
/** DELETE /api/courses/{courseId}/assignment/users/{userId} */
export const assignedUserParams = z.object({ courseId: dbIdParam, userId: dbIdParam });

/** GET /api/courses/{courseId}/assignment/candidates?search= : live employees by name or address. */
export const assignmentCandidatesQuery = z.object({ search: safeText(100).optional() });
export const assignmentCandidate = assignmentPerson.extend({
  /** Already assigned the course directly. */
  assigned: z.boolean(),
});
export type AssignmentCandidate = z.infer<typeof assignmentCandidate>;
export const assignmentCandidatesResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(assignmentCandidate) }),
});

/** Names in guillemets, joined: «Продажи», «Склад». */
const quoted = (names: readonly string[]) => names.map((n) => `«${n}»`).join(', ');

/** The success messages of the section, in the product's voice. */
export const assignmentMessages = {
  departmentsAdded: (names: readonly string[]) =>
    names.length === 1 ? `Курс назначен отделу ${quoted(names)}` : `Курс назначен отделам: ${quoted(names)}`,
  departmentRemoved: (name: string) => `Назначение отделу «${name}» снято`,
  groupsAdded: (names: readonly string[]) =>
    names.length === 1 ? `Курс назначен группе ${quoted(names)}` : `Курс назначен группам: ${quoted(names)}`,
  groupRemoved: (name: string) => `Назначение группе «${name}» снято`,
  usersAdded: (names: readonly string[]) =>
    names.length === 1
      ? `Курс назначен сотруднику ${names[0] ?? ''}`
      : `Курс назначен ${formatCount(names.length, EMPLOYEE_DATIVE_FORMS)}`,
  userRemoved: (name: string) => `Назначение сотруднику ${name} снято`,
};
