import { z } from 'zod';
import { MAX_DB_INT, dbId, safeText } from './common.js';

const id = z.number().int().positive();
const ref = z.object({ id: z.number().int(), name: z.string() });
const ids = z.array(dbId).max(1000).default([]);
const text = (max: number, required: string) => safeText(max, { required });

export const namedRef = ref;
export type NamedRef = z.infer<typeof ref>;

/** A row of GET /api/admin/users (`items`). */
export const adminUserListItem = z.object({
  id,
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  login: z.string(),
  email: z.string(),
  position: z.string().nullable(),
  department: ref.nullable(),
  roles: ref,
  last_activity: z.string().nullable(),
  /** Kept by the directory sync: names, email, department, position and manager change only there. */
  from_directory: z.boolean(),
  /** The line manager (a live employee), if any. */
  manager: z.object({ id, name: z.string(), email: z.string() }).nullable(),
});
export type AdminUserListItem = z.infer<typeof adminUserListItem>;
/** Orders of the paged employees list. */
export const ADMIN_USER_SORTS = ['name', 'email', 'department', 'role', 'last_activity'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const ADMIN_USERS_PER_PAGE_MAX = 200;
/**
 * GET /api/admin/users query. Without any parameter the answer is the full `items`; with
 * any of them it is one page (50 by default) with `total`, searched on the server (name or email,
 * case-insensitive substring) and sorted.
 */
export const adminUsersQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(ADMIN_USERS_PER_PAGE_MAX).optional(),
  search: safeText(100).optional(),
  sort: z.enum(ADMIN_USER_SORTS).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;
export const adminUserListResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  items: z.array(adminUserListItem),
  total: z.number().int().optional(),
  page: z.number().int().optional(),
  per_page: z.number().int().optional(),
});

/** GET /api/admin/users/{id} → result.data */
export const adminUserDetail = adminUserListItem.extend({ courses: z.array(ref) });
export type AdminUserDetail = z.infer<typeof adminUserDetail>;
export const adminUserDetailResponse = z.object({
  result: z.object({ success: z.literal(true), data: adminUserDetail }),
});

const userFields = {
  first_name: text(100, 'Пожалуйста, заполните все поля'),
  last_name: text(100, 'Пожалуйста, заполните все поля'),
  login: z.string().trim().toLowerCase().min(1, 'Пожалуйста, заполните все поля').max(254).email('Некорректный email'),
  // JSON integers only, like every body id (common.ts dbId).
  department_id: z
    .number({ error: 'Пожалуйста, выберите роль и отдел' })
    .int()
    .positive('Пожалуйста, выберите роль и отдел')
    .max(MAX_DB_INT, 'Пожалуйста, выберите роль и отдел'),
  role_id: z
    .number({ error: 'Пожалуйста, выберите роль и отдел' })
    .int()
    .positive('Пожалуйста, выберите роль и отдел')
    .max(MAX_DB_INT, 'Пожалуйста, выберите роль и отдел'),
  position: safeText(255).nullish(),
  /** The line manager's email; '' or null: none; not given: left as it is. */
  manager_email: z
    .union([z.literal(''), z.string().trim().toLowerCase().max(254).email('Некорректный email руководителя')])
    .nullish(),
};

/** POST /api/admin/users — the client sends an empty password; the server makes one and mails it. */
export const createUserRequest = z.object({
  ...userFields,
  password: z.string().max(0).optional().nullable(),
  course_ids: ids,
});
export type CreateUserRequest = z.input<typeof createUserRequest>;
export const createUserResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string() }),
  data: z.object({ id }),
});

/** PUT /api/admin/users/{id} */
export const updateUserRequest = z.object(userFields);
export type UpdateUserRequest = z.input<typeof updateUserRequest>;

/** GET /api/admin/users/{id}/courses → result.data */
export const userCoursesResponse = z.object({ result: z.object({ success: z.literal(true), data: z.array(ref) }) });

/** POST /api/admin/user-courses/attach and /detach */
export const userCoursesChange = z.object({ user_id: dbId, course_ids: ids });

export const roleItem = z.object({ id, name: z.string(), code: z.string() });
export const rolesResponse = z.object({ result: z.object({ success: z.literal(true), items: z.array(roleItem) }) });

export const departmentItem = z.object({
  id,
  name: z.string(),
  sort_order: z.number().int().nullable(),
  course_ids: z.array(z.number().int()),
});
export type DepartmentItem = z.infer<typeof departmentItem>;
export const departmentsResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(departmentItem) }),
});
export const departmentRequest = z.object({
  name: text(255, 'Пожалуйста, введите название отдела'),
  sort_order: z
    .union([
      z.literal(''),
      z.null(),
      z.coerce
        .number()
        .int('Порядок сортировки должен быть целым числом')
        .min(0, 'Порядок сортировки не может быть отрицательным')
        .max(MAX_DB_INT, 'Слишком большое число'),
    ])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  course_ids: ids,
});
export type DepartmentRequest = z.input<typeof departmentRequest>;
export const departmentResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string(), item: departmentItem }),
});

/** Courses of a department or group, shaped for a multi-select as well. */
export const courseOption = z.object({ id, name: z.string(), value: z.string(), label: z.string() });
export const courseOptionsResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(courseOption) }),
});

/** A member of a study group: the name as shown, and its parts for the avatar's initials. */
export const groupMember = ref.extend({ first_name: z.string(), last_name: z.string() });
export const studyGroupItem = z.object({
  id,
  name: z.string(),
  users: z.array(groupMember),
  course_ids: z.array(z.number().int()),
});
export type StudyGroupItem = z.infer<typeof studyGroupItem>;
export const studyGroupsResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(studyGroupItem) }),
});
export const studyGroupRequest = z.object({
  name: text(255, 'Пожалуйста, введите название группы'),
  user_ids: ids,
  course_ids: ids,
});
export type StudyGroupRequest = z.input<typeof studyGroupRequest>;
export const studyGroupResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string(), item: studyGroupItem }),
});
