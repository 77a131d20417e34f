import type {
  AdminUserDetail,
  AdminUserListItem,
  CreateUserRequest,
  DepartmentItem,
  NamedRef,
  StudyGroupItem,
  UpdateUserRequest,
} from '@lms/contract';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { AxiosResponse } from 'axios';
import { useCallback } from 'react';
import { http } from '../../app/http';
import { errorStatus, isNetworkError, serverMessage } from '../../lib/errors';
import { routePath, useZiggy } from '../../shared/ziggy';
import { T } from './texts';

export type AdminUser = AdminUserListItem;
export type Department = DepartmentItem;
export type StudyGroup = StudyGroupItem;
export interface Role {
  id: number;
  name: string;
  code: string;
}
/** A course to choose, with the name of its catalogue category. */
export interface CourseChoice {
  id: number;
  name: string;
  category: string;
}

export const settingsKeys = {
  all: ['settings'] as const,
  users: ['settings', 'users'] as const,
  user: (id: number) => ['settings', 'users', id] as const,
  userCourses: (id: number) => ['settings', 'users', id, 'courses'] as const,
  roles: ['settings', 'roles'] as const,
  departments: ['settings', 'departments'] as const,
  departmentCourses: (id: number) => ['settings', 'departments', id, 'courses'] as const,
  groups: ['settings', 'groups'] as const,
  groupCourses: (id: number) => ['settings', 'groups', id, 'courses'] as const,
  courses: ['settings', 'course-choices'] as const,
};

/** Route names of the route directory (spec 03 §7) with the paths used while it is not there. */
const NAMED = {
  'admin.users': '/api/admin/users',
  'api.admin.user': '/api/admin/users/{id}',
  'api.courses': '/api/courses',
} as const;

export type Paths = ReturnType<typeof makePaths>;

function makePaths(resolve: (name: keyof typeof NAMED) => string) {
  const withId = (template: string, id: number) => template.replace(/\{id\??\}/, String(id));
  return {
    users: () => resolve('admin.users'),
    user: (id: number) => withId(resolve('api.admin.user'), id),
    userCourses: (id: number) => `/api/admin/users/${id}/courses`,
    resetPassword: (id: number) => `/api/admin/users/${id}/reset-password`,
    attach: () => '/api/admin/user-courses/attach',
    detach: () => '/api/admin/user-courses/detach',
    roles: () => '/api/admin/roles',
    departments: () => '/api/admin/departments',
    department: (id: number) => `/api/admin/departments/${id}`,
    departmentCourses: (id: number) => `/api/admin/departments/${id}/courses`,
    groups: () => '/api/study-groups',
    group: (id: number) => `/api/study-groups/${id}`,
    groupCourses: (id: number) => `/api/study-groups/${id}/courses`,
    courses: () => resolve('api.courses'),
  };
}

/** Paths of the settings calls, taking the named ones from the route directory when it is loaded. */
export function usePaths(): Paths {
  const ziggy = useZiggy();
  const resolve = useCallback(
    (name: keyof typeof NAMED): string => {
      const path = routePath(ziggy, name);
      return path && path.startsWith('/api/') ? path : NAMED[name];
    },
    [ziggy],
  );
  return makePaths(resolve);
}

// ───────────────────────────── answers ─────────────────────────────

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

class ShapeError extends Error {
  constructor() {
    super('Неожиданный ответ сервера');
  }
}

/** `result.<key>` of an answer, which must be an array. */
function resultList<I>(data: unknown, key: 'items' | 'data'): I[] {
  const result = isRecord(data) ? data.result : undefined;
  const list = isRecord(result) ? result[key] : undefined;
  if (!Array.isArray(list)) throw new ShapeError();
  return list as I[];
}

/** The message of a failed call for '…: {msg}' toasts: the server's, else a short description. */
export function errorText(error: unknown): string {
  const message = serverMessage(error);
  if (message) return message;
  if (isNetworkError(error)) return 'нет связи с сервером';
  const status = errorStatus(error);
  if (status) return `код ответа ${status}`;
  return error instanceof Error && error.message ? error.message : T.unknownError;
}

/** The server's message of a failed call, else the given default (spec 03 §8). */
export function messageOr(error: unknown, fallback: string): string {
  return serverMessage(error) ?? fallback;
}

/** The success message of an answer (`result.message`), else the given default. */
export function successMessage(response: AxiosResponse<unknown>, fallback: string): string {
  const data = response.data;
  const result = isRecord(data) ? data.result : undefined;
  const message = isRecord(result) ? result.message : undefined;
  return typeof message === 'string' && message.trim() !== '' ? message : fallback;
}

export const isForbidden = (error: unknown): boolean => errorStatus(error) === 403;

// ───────────────────────────── queries ─────────────────────────────

interface QueryOptions {
  enabled?: boolean;
  /** 'always': ask again on mount even with a cached answer (forms that start from it). */
  refetchOnMount?: boolean | 'always';
}

function useSettingsQuery<R>(
  key: QueryKey,
  fetch: () => Promise<R>,
  { enabled = true, refetchOnMount = true }: QueryOptions = {},
) {
  return useQuery({ queryKey: key, queryFn: fetch, enabled, refetchOnMount, staleTime: 30_000 });
}

/** GET /api/admin/users → items */
export function useUsers(options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.users,
    async () => {
      const { data } = await http.get<unknown>(paths.users());
      if (!isRecord(data) || !Array.isArray(data.items)) throw new ShapeError();
      return data.items as AdminUser[];
    },
    options,
  );
}

/** GET /api/admin/users/{id} → result.data */
export function useUserDetail(id: number, options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.user(id),
    async () => {
      const { data } = await http.get<unknown>(paths.user(id));
      const result = isRecord(data) ? data.result : undefined;
      if (!isRecord(result) || !isRecord(result.data)) throw new ShapeError();
      return result.data as AdminUserDetail;
    },
    options,
  );
}

/** GET /api/admin/users/{id}/courses → result.data */
export function useUserCourses(id: number, options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.userCourses(id),
    async () => resultList<NamedRef>((await http.get<unknown>(paths.userCourses(id))).data, 'data'),
    options,
  );
}

/** GET /api/admin/roles → result.items */
export function useRoles(options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.roles,
    async () => resultList<Role>((await http.get<unknown>(paths.roles())).data, 'items'),
    options,
  );
}

/** GET /api/admin/departments → result.items */
export function useDepartments(options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.departments,
    async () => resultList<Department>((await http.get<unknown>(paths.departments())).data, 'items'),
    options,
  );
}

interface CourseOption {
  id: number;
  name: string;
}

/** GET /api/admin/departments/{id}/courses → result.items */
export function useDepartmentCourses(id: number, options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.departmentCourses(id),
    async () => resultList<CourseOption>((await http.get<unknown>(paths.departmentCourses(id))).data, 'items'),
    options,
  );
}

/** GET /api/study-groups → result.items */
export function useGroups(options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.groups,
    async () => resultList<StudyGroup>((await http.get<unknown>(paths.groups())).data, 'items'),
    options,
  );
}

/** GET /api/study-groups/{id}/courses → result.items */
export function useGroupCourses(id: number, options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.groupCourses(id),
    async () => resultList<CourseOption>((await http.get<unknown>(paths.groupCourses(id))).data, 'items'),
    options,
  );
}

/** Courses of the catalogue (GET /api/courses: categories, each with its courses), flattened. */
export function parseCourseChoices(data: unknown): CourseChoice[] {
  const out: CourseChoice[] = [];
  const seen = new Set<number>();
  for (const category of resultList<unknown>(data, 'items')) {
    if (!isRecord(category) || !Array.isArray(category.items)) continue;
    const categoryName = typeof category.name === 'string' ? category.name : '';
    for (const course of category.items) {
      if (!isRecord(course) || typeof course.id !== 'number' || seen.has(course.id)) continue;
      const name = typeof course.name === 'string' ? course.name : typeof course.title === 'string' ? course.title : '';
      seen.add(course.id);
      out.push({ id: course.id, name, category: categoryName });
    }
  }
  return out;
}

export function useCourseChoices(options?: QueryOptions) {
  const paths = usePaths();
  return useSettingsQuery(
    settingsKeys.courses,
    async () => parseCourseChoices((await http.get<unknown>(paths.courses())).data),
    options,
  );
}

// ───────────────────────────── changes ─────────────────────────────

export function createUser(paths: Paths, body: CreateUserRequest) {
  return http.post<unknown>(paths.users(), body);
}

export function updateUser(paths: Paths, id: number, body: UpdateUserRequest) {
  return http.put<unknown>(paths.user(id), body);
}

export function deleteUser(paths: Paths, id: number) {
  return http.delete<unknown>(paths.user(id));
}

export function resetPassword(paths: Paths, id: number) {
  return http.post<unknown>(paths.resetPassword(id));
}

export async function changeUserCourses(paths: Paths, userId: number, attach: number[], detach: number[]) {
  if (attach.length > 0) await http.post(paths.attach(), { user_id: userId, course_ids: attach });
  if (detach.length > 0) await http.post(paths.detach(), { user_id: userId, course_ids: detach });
}

export interface DepartmentBody {
  name: string;
  sort_order: number | null;
  course_ids: number[];
}

export function saveDepartment(paths: Paths, id: number | null, body: DepartmentBody) {
  return id === null ? http.post<unknown>(paths.departments(), body) : http.put<unknown>(paths.department(id), body);
}

export function deleteDepartment(paths: Paths, id: number) {
  return http.delete<unknown>(paths.department(id));
}

export interface GroupBody {
  name: string;
  user_ids: number[];
  course_ids: number[];
}

/** Answered with 201 on create and 200 on update (spec 03 §7); any other status is a failure. */
export async function saveGroup(paths: Paths, id: number | null, body: GroupBody) {
  const response =
    id === null ? await http.post<unknown>(paths.groups(), body) : await http.put<unknown>(paths.group(id), body);
  const expected = id === null ? 201 : 200;
  if (response.status !== expected) throw new Error(`код ответа ${response.status}`);
  return response;
}

/** Answered with 204 and no body. */
export async function deleteGroup(paths: Paths, id: number) {
  const response = await http.delete<unknown>(paths.group(id));
  if (response.status !== 204) throw new Error(`код ответа ${response.status}`);
  return response;
}
