import {
  adminUserDetailResponse,
  adminUserListResponse,
  courseOptionsResponse,
  departmentsResponse,
  rolesResponse,
  studyGroupsResponse,
  userCoursesResponse,
  type AdminUserListItem,
  type CreateUserRequest,
  type DepartmentItem,
  type DepartmentRequest,
  type StudyGroupItem,
  type StudyGroupRequest,
  type UpdateUserRequest,
} from '@lms/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { settingsQueryKey } from '../../shared/queryKeys';
import { routePath, useZiggy } from '../../shared/ziggy';
import { crudResource } from './crud';

export type AdminUser = AdminUserListItem;
export type Department = DepartmentItem;
export type StudyGroup = StudyGroupItem;
/** A course to choose, with the name of its catalogue category. */
export interface CourseChoice {
  id: number;
  name: string;
  category: string;
}

export const settingsKeys = {
  all: settingsQueryKey,
  users: ['settings', 'users'] as const,
  /** One page of the employees tab; under `users`, so invalidating the list refreshes it too. */
  usersPage: (params: UsersPageParams) => ['settings', 'users', 'page', params] as const,
  user: (id: number) => ['settings', 'users', id] as const,
  userCourses: (id: number) => ['settings', 'users', id, 'courses'] as const,
  roles: ['settings', 'roles'] as const,
  departments: ['settings', 'departments'] as const,
  groups: ['settings', 'groups'] as const,
  courses: ['settings', 'course-choices'] as const,
};

/** Route names of the route directory (docs/product.md §Settings) with the paths used while it is not there. */
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
    courses: () => resolve('api.courses'),
  };
}

/** Paths of the settings calls, taking the named ones from the route directory when it is loaded. */
export function usePaths(): Paths {
  const ziggy = useZiggy();
  return useMemo(
    () =>
      makePaths((name) => {
        const path = routePath(ziggy, name);
        return path && path.startsWith('/api/') ? path : NAMED[name];
      }),
    [ziggy],
  );
}

/** Lists stay fresh for 30 s; a screen that mounts asks again after that. */
const LIST_STALE_TIME = 30_000;

// ───────────────────────────── queries ─────────────────────────────

/** A settings list or item read with `read`; `fresh`: an edit form starts from a new answer, never a cached one. */
function settingsQuery<T>(queryKey: QueryKey, url: string, read: (data: unknown) => T, fresh = false) {
  return queryOptions({
    queryKey,
    queryFn: async () => read((await http.get<unknown>(url)).data),
    staleTime: LIST_STALE_TIME,
    refetchOnMount: fresh ? 'always' : true,
  });
}

/** GET /api/admin/users → items */
export const usersQuery = (paths: Paths) =>
  settingsQuery(settingsKeys.users, paths.users(), (data) => parseAnswer(adminUserListResponse, data).items);

/** The employees tab shows this many rows a page. */
export const USERS_PER_PAGE = 50;

export interface UsersPageParams {
  page: number;
  per_page: number;
  /** Sent only when not blank. */
  search: string;
}

/** One page of employees with the count of all that match the search. */
export interface UsersPage {
  items: AdminUser[];
  total: number;
  page: number;
  per_page: number;
  /** The search the page was found for. */
  search: string;
}

/** `/api/admin/users?page=…&per_page=…[&search=…]`: asks for one page, never the whole company. */
export function usersPageUrl(paths: Paths, { page, per_page, search }: UsersPageParams): string {
  const params = new URLSearchParams({ page: String(page), per_page: String(per_page) });
  const text = search.trim();
  if (text) params.set('search', text);
  return `${paths.users()}?${params.toString()}`;
}

/** GET /api/admin/users with page parameters → items, total, page, per_page. */
export const usersPageQuery = (paths: Paths, params: UsersPageParams) =>
  queryOptions({
    queryKey: settingsKeys.usersPage(params),
    queryFn: async (): Promise<UsersPage> => {
      const answer = parseAnswer(adminUserListResponse, (await http.get<unknown>(usersPageUrl(paths, params))).data);
      return {
        items: answer.items,
        total: answer.total ?? answer.items.length,
        page: answer.page ?? params.page,
        per_page: answer.per_page ?? params.per_page,
        search: params.search,
      };
    },
    staleTime: LIST_STALE_TIME,
    // the rows of the page before stay while the next one loads, so the table does not flash
    placeholderData: keepPreviousData,
  });

/** GET /api/admin/users/{id} → result.data */
export const userDetailQuery = (paths: Paths, id: number) =>
  settingsQuery(
    settingsKeys.user(id),
    paths.user(id),
    (data) => parseAnswer(adminUserDetailResponse, data).result.data,
    true,
  );

/** GET /api/admin/users/{id}/courses → result.data */
export const userCoursesQuery = (paths: Paths, id: number) =>
  settingsQuery(
    settingsKeys.userCourses(id),
    paths.userCourses(id),
    (data) => parseAnswer(userCoursesResponse, data).result.data,
    true,
  );

/** GET /api/admin/roles → result.items */
export const rolesQuery = (paths: Paths) =>
  settingsQuery(settingsKeys.roles, paths.roles(), (data) => parseAnswer(rolesResponse, data).result.items);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Courses of the catalogue (GET /api/courses: categories, each with its courses), flattened. Only
 * the ids and names are needed here, so the answer is read leniently rather than as a whole card.
 */
export function parseCourseChoices(data: unknown): CourseChoice[] {
  const result = isRecord(data) ? data.result : undefined;
  const categories = isRecord(result) ? result.items : undefined;
  if (!Array.isArray(categories)) throw new Error('Неожиданный ответ сервера');
  const out: CourseChoice[] = [];
  const seen = new Set<number>();
  for (const category of categories) {
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

export const courseChoicesQuery = (paths: Paths) =>
  settingsQuery(settingsKeys.courses, paths.courses(), parseCourseChoices);

/** Every employee (member pickers); the employees tab asks for pages instead (`useUsersPage`). */
export function useUsers() {
  return useQuery(usersQuery(usePaths()));
}

/** One page of the employees tab, searched on the server. */
export function useUsersPage(params: UsersPageParams) {
  return useQuery(usersPageQuery(usePaths(), params));
}

export function useUserDetail(id: number) {
  return useQuery(userDetailQuery(usePaths(), id));
}

export function useUserCourses(id: number) {
  return useQuery(userCoursesQuery(usePaths(), id));
}

export function useRoles() {
  return useQuery(rolesQuery(usePaths()));
}

export function useCourseChoices() {
  return useQuery(courseChoicesQuery(usePaths()));
}

// ─────────────────────── departments and study groups ───────────────────────

/** Departments: names show in the employees table too, so a change refreshes it as well. */
export const departments = crudResource<Department, DepartmentRequest>({
  key: settingsKeys.departments,
  path: '/api/admin/departments',
  listSchema: departmentsResponse,
  courseSchema: courseOptionsResponse,
  shownIn: [settingsKeys.users],
});

/** Study groups: answered with 201 on create, 200 on update and 204 on delete (docs/product.md §Settings). */
export const groups = crudResource<StudyGroup, StudyGroupRequest>({
  key: settingsKeys.groups,
  path: '/api/study-groups',
  listSchema: studyGroupsResponse,
  courseSchema: courseOptionsResponse,
  statuses: { create: 201, update: 200, remove: 204 },
});

// ───────────────────────────── employees ─────────────────────────────

/** What changing an employee shows in: the list, the groups (member names) and the employee's own form. */
function refreshUsers(queryClient: QueryClient, id?: number) {
  void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
  void queryClient.invalidateQueries({ queryKey: settingsKeys.groups });
  if (id !== undefined) void queryClient.invalidateQueries({ queryKey: settingsKeys.user(id) });
}

/** One employee of the add form: the body sent, and what became of it. */
export type AddOutcome<S> = { student: S; data: unknown } | { student: S; error: unknown };

/**
 * POST /api/admin/users for each student in turn, in the order of the form; `onEach` hears of
 * every outcome as it comes. The list is refreshed once, when all are done.
 */
export function useCreateUsers<S>() {
  const paths = usePaths();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      students,
      body,
      onEach,
    }: {
      students: S[];
      body: (student: S) => CreateUserRequest;
      onEach: (outcome: AddOutcome<S>) => void;
    }) => {
      const outcomes: AddOutcome<S>[] = [];
      for (const student of students) {
        let outcome: AddOutcome<S>;
        try {
          outcome = { student, data: (await http.post<unknown>(paths.users(), body(student))).data };
        } catch (error) {
          outcome = { student, error };
        }
        outcomes.push(outcome);
        onEach(outcome);
      }
      return outcomes;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.users }),
  });
}

/**
 * PUT /api/admin/users/{id}, then only the difference of the course sets (docs/product.md §Settings):
 * POST attach and detach.
 */
export function useUpdateUser() {
  const paths = usePaths();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      body,
      attach,
      detach,
    }: {
      id: number;
      body: UpdateUserRequest;
      attach: number[];
      detach: number[];
    }) => {
      const { data } = await http.put<unknown>(paths.user(id), body);
      if (attach.length > 0) await http.post(paths.attach(), { user_id: id, course_ids: attach });
      if (detach.length > 0) await http.post(paths.detach(), { user_id: id, course_ids: detach });
      return data;
    },
    onSettled: (_data, _error, { id }) => refreshUsers(queryClient, id),
  });
}

/** DELETE /api/admin/users/{id} */
export function useDeleteUser() {
  const paths = usePaths();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await http.delete<unknown>(paths.user(id))).data,
    onSettled: () => refreshUsers(queryClient),
  });
}

/** POST /api/admin/users/{id}/reset-password: nothing shown changes. */
export function useResetPassword() {
  const paths = usePaths();
  return useMutation({
    mutationFn: async (id: number) => (await http.post<unknown>(paths.resetPassword(id))).data,
  });
}
