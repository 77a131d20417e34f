/* Fixtures and set-up of the settings component tests (not part of the app bundle). */
import type { AdminUserListItem, AuthUser, DepartmentItem, StudyGroupItem } from '@lms/contract';
import { afterEach } from 'vitest';
import { adminUser, learnerUser } from '../../test/fixtures';
import { mockHttp, testConfig, testZiggy, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import DepartmentsPage from './DepartmentsPage';
import GroupsPage from './GroupsPage';
import UsersPage from './UsersPage';
import { setupUser } from '../../test/user';

export { learnerUser };

const recent = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const LEARNER = { id: 4, name: 'Ученик' };
const SALES = { id: 10, name: 'Отдел продаж' };
const IT = { id: 11, name: 'ИТ-отдел' };

/** An employee row: 'Фамилия Имя' as the server writes it, the login as the e-mail. */
function employee(
  id: number,
  [last_name, first_name]: [string, string],
  login: string,
  more: Pick<AdminUserListItem, 'position' | 'department' | 'roles' | 'last_activity'>,
): AdminUserListItem {
  return {
    id,
    name: `${last_name} ${first_name}`,
    first_name,
    last_name,
    login,
    email: login,
    from_directory: false,
    manager: null,
    ...more,
  };
}

export const users: AdminUserListItem[] = [
  employee(1, ['Петрова', 'Мария'], 'petrova@company.ru', {
    position: 'Администратор платформы',
    department: null,
    roles: { id: 1, name: 'Администратор' },
    last_activity: recent(0),
  }),
  employee(2, ['Иванов', 'Иван'], 'ivanov@company.ru', {
    position: 'Менеджер',
    department: SALES,
    roles: LEARNER,
    last_activity: recent(5),
  }),
  employee(3, ['Smith', 'John'], 'j.smith@company.ru', {
    position: null,
    department: IT,
    roles: LEARNER,
    last_activity: null,
  }),
  employee(4, ['Борисова', 'Анна'], 'borisova@company.ru', {
    position: null,
    department: IT,
    roles: LEARNER,
    last_activity: recent(3 * 60),
  }),
  employee(5, ['Adams', 'Kate'], 'k.adams@company.ru', {
    position: null,
    department: null,
    roles: LEARNER,
    last_activity: 'not a date',
  }),
];

export const roles = [
  { id: 1, name: 'Администратор', code: 'admin' },
  { id: 2, name: 'Автор курсов', code: 'author' },
  { id: 3, name: 'Руководитель', code: 'manager' },
  { id: 4, name: 'Ученик', code: 'learner' },
];

export const departments: DepartmentItem[] = [
  { id: 10, name: 'Отдел продаж', sort_order: 2, course_ids: [101] },
  { id: 11, name: 'ИТ-отдел', sort_order: null, course_ids: [] },
  { id: 12, name: 'Бухгалтерия', sort_order: 1, course_ids: [] },
];

export const groups: StudyGroupItem[] = [
  {
    id: 20,
    name: 'Новые сотрудники',
    users: [
      { id: 2, name: 'Иванов Иван', first_name: 'Иван', last_name: 'Иванов' },
      { id: 3, name: 'Smith John', first_name: 'John', last_name: 'Smith' },
    ],
    course_ids: [101],
  },
  { id: 21, name: 'Наставники', users: [], course_ids: [] },
];

export const catalogue = {
  result: {
    success: true,
    items: [
      {
        id: 1,
        name: 'Обязательное обучение',
        sort_order: 0,
        items: [
          { id: 101, name: 'Охрана труда' },
          { id: 102, name: 'Информационная безопасность' },
        ],
      },
      {
        id: 2,
        name: 'Развитие навыков',
        sort_order: 1,
        items: [
          { id: 103, name: 'Переговоры' },
          { id: 104, name: 'Тайм-менеджмент' },
        ],
      },
      { id: -1, name: 'Без категории', sort_order: 99, items: [{ id: 105, name: 'Продукт компании' }] },
    ],
  },
};

export const ok = (data: unknown, status = 200): MockReply => ({ status, data });

/**
 * GET /api/admin/users as the server answers it: without a query string every employee in
 * `items`; with page, per_page or search one page of them with `total` (search: case-insensitive
 * substring of "first last", "last first" or the e-mail).
 */
export const usersAnswer =
  (list: AdminUserListItem[] = users) =>
  (request: RecordedRequest): MockReply => {
    const query = request.url.split('?')[1];
    if (!query) return ok({ result: { success: true }, items: list });
    const params = new URLSearchParams(query);
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const search = (params.get('search') ?? '').toLowerCase();
    const found = list.filter((u) =>
      [`${u.first_name} ${u.last_name}`, `${u.last_name} ${u.first_name}`, u.email].some((field) =>
        field.toLowerCase().includes(search),
      ),
    );
    const items = found.slice((page - 1) * perPage, page * perPage);
    return ok({ result: { success: true }, items, total: found.length, page, per_page: perPage });
  };

/** The answer to a create or an update: `message`, and the sent body as the item with `id`. */
export const savedItem =
  (id: number, message: string, status = 200) =>
  (request: RecordedRequest): MockReply =>
    ok({ result: { success: true, message, item: { id, ...(request.body as object) } } }, status);

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

/** Default answers of every settings call, overridable per test. */
export function settingsRoutes(overrides: Record<string, Handler> = {}, me: AuthUser = adminUser) {
  return {
    'GET /ziggy': ok(testZiggy),
    'GET /api/config': ok(testConfig),
    'GET /api/check-auth': ok(me),
    'GET /api/admin/users': usersAnswer(),
    'GET /api/admin/roles': ok({ result: { success: true, items: roles } }),
    'GET /api/admin/departments': ok({ result: { success: true, items: departments } }),
    'GET /api/study-groups': ok({ result: { success: true, items: groups } }),
    'GET /api/courses': ok(catalogue),
    ...overrides,
  };
}

const paths = { users: '/settings', departments: '/settings/departments', groups: '/settings/groups' };

/** Renders one settings tab with mocked HTTP. */
export function renderSettings(
  page: keyof typeof paths,
  overrides: Record<string, Handler> = {},
  me: AuthUser = adminUser,
) {
  const mock = mockHttp(settingsRoutes(overrides, me));
  const view = renderRoutes(
    [
      { path: '/settings', Component: UsersPage },
      { path: '/settings/departments', Component: DepartmentsPage },
      { path: '/settings/groups', Component: GroupsPage },
    ],
    paths[page],
  );
  const calls = (method: string, url?: string) =>
    mock.requests.filter((r) => r.method === method && (url === undefined || r.url === url));
  return { ...view, ...mock, calls, ue: setupUser() };
}

/**
 * For the top of a test file: gives `setup`, which renders a tab as `renderSettings` does; after
 * each test its HTTP mock is undone and the toasts are cleared.
 */
export function settingsSetup() {
  let restore: () => void = () => {};
  afterEach(() => {
    restore();
    resetToasts();
  });
  return (...args: Parameters<typeof renderSettings>) => {
    const view = renderSettings(...args);
    restore = view.restore;
    return view;
  };
}

/** The query of each page request of the employees list (the tab never asks for all of them). */
export const pageQueries = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.method === 'GET' && r.url.startsWith('/api/admin/users?'))
    .map((r) => Object.fromEntries(new URLSearchParams(r.url.split('?')[1])));
