/* Fixtures and set-up of the employees import's component tests (not part of the app bundle). */
import type { AuthUser, PeopleBatch, PeopleBatchRow } from '@lms/contract';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { http, type UploadProgress } from '../../lib/http';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { preloadRoutes, renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import ImportPage from './ImportPage';
import { ok, settingsRoutes } from './testing';
import UsersPage from './UsersPage';

const ROUTES = [
  { path: '/settings', Component: UsersPage },
  { path: '/settings/import', Component: ImportPage },
];

export const batch = (more: Partial<PeopleBatch> = {}): PeopleBatch => ({
  id: 7,
  source: 'import',
  status: 'previewed',
  file_name: 'сотрудники.xlsx',
  created_at: '2026-01-15T09:00:00.000Z',
  applied_at: null,
  options: { create_departments: true, delete_missing: true, send_welcome: false },
  counts: { create: 1, update: 1, unchanged: 1, delete: 3, error: 2 },
  new_departments: ['Склад', 'Логистика'],
  ...more,
});

export const person = (line: number | null, more: Partial<PeopleBatchRow>): PeopleBatchRow => ({
  line,
  action: 'unchanged',
  email: `line${line ?? 'none'}@company.ru`,
  name: 'Сотрудник',
  user_id: null,
  changes: [],
  errors: [],
  ...more,
});

export const ROWS: PeopleBatchRow[] = [
  person(2, {
    action: 'update',
    email: 'ivanov@company.ru',
    name: 'Иванов Иван',
    user_id: 2,
    changes: [
      { field: 'department', before: 'Отдел продаж', after: 'Склад' },
      { field: 'position', before: null, after: 'Старший менеджер' },
    ],
  }),
  person(3, {
    action: 'create',
    email: 'novikova@company.ru',
    name: 'Новикова Нина',
    changes: [
      { field: 'last_name', before: null, after: 'Новикова' },
      { field: 'first_name', before: null, after: 'Нина' },
      { field: 'email', before: null, after: 'novikova@company.ru' },
      { field: 'department', before: null, after: 'Логистика' },
      { field: 'role', before: null, after: 'Ученик' },
    ],
  }),
  person(4, { action: 'unchanged', email: 'smith@company.ru', name: 'Smith John', user_id: 3 }),
  person(5, { action: 'error', email: '', name: 'Петров', errors: ['Не заполнено: Имя', 'Не заполнено: Email'] }),
  person(6, { action: 'error', email: 'bad@', name: 'Сидоров Семён', errors: ['Некорректный email «bad@»'] }),
  person(null, { action: 'delete', email: 'borisova@company.ru', name: 'Борисова Анна', user_id: 4 }),
  person(null, { action: 'delete', email: 'k.adams@company.ru', name: 'Adams Kate', user_id: 5 }),
  person(null, { action: 'delete', email: 'old@company.ru', name: 'Старый Сотрудник', user_id: 9 }),
];

/** GET …/rows as the server answers it: the rows of one action (or all), one page of them. */
export const rowsAnswer =
  (list: PeopleBatchRow[]) =>
  (request: RecordedRequest): MockReply => {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const action = params.get('action');
    const found = action ? list.filter((r) => r.action === action) : list;
    const items = found.slice((page - 1) * perPage, page * perPage);
    return ok({ result: { success: true }, items, total: found.length, page, per_page: perPage });
  };

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

function render(
  path: string,
  more: Record<string, Handler> = {},
  { me, rows = ROWS, shown = batch() }: { me?: AuthUser; rows?: PeopleBatchRow[]; shown?: PeopleBatch } = {},
) {
  const mock = mockHttp(
    settingsRoutes(
      {
        'GET /api/admin/people-import/7': ok({ result: { success: true }, data: shown }),
        'GET /api/admin/people-import/7/rows': rowsAnswer(rows),
        ...more,
      },
      me,
    ),
  );
  // The mock answers at once; the upload's progress is reported by the test itself.
  const answer = http.defaults.adapter;
  let progress: ((event: UploadProgress) => void) | undefined;
  http.defaults.adapter = (config) => {
    if (config.onUploadProgress) progress = config.onUploadProgress;
    return answer(config);
  };
  const view = renderRoutes(ROUTES, path);
  const calls = (prefix: string) => mock.requests.filter((r) => r.url.startsWith(prefix));
  const report = (loaded: number, total: number) => act(() => progress?.({ loaded, total }));
  return { ...view, ...mock, calls, report, ue: setupUser() };
}

export const rows = () => screen.queryAllByTestId('import-row');
export const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
};
export const xlsx = (name = 'сотрудники.xlsx', size = 10) =>
  new File([new Uint8Array(size)], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

/** A promise the test settles by hand: the server's answer while the screen waits for it. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * For the top of a test file: gives `setup(path, routes, { me, rows, shown })`, which renders the
 * import screen (and the employees tab) at `path` with the batch 7 of `shown` and its `rows`; after
 * each test the HTTP mock and any spy are undone and the toasts are cleared.
 */
export function importSetup() {
  vi.setConfig({ testTimeout: 30_000 });
  let restore: () => void = () => {};
  beforeAll(() => preloadRoutes(ROUTES));
  afterEach(() => {
    restore();
    resetToasts();
    vi.restoreAllMocks();
  });
  return (...args: Parameters<typeof render>) => {
    const view = render(...args);
    restore = view.restore;
    return view;
  };
}
