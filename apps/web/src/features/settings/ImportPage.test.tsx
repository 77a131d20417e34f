import type { AuthUser, PeopleBatch, PeopleBatchRow } from '@lms/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, type UploadProgress } from '../../lib/http';
import { learnerUser } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { preloadRoutes, renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import ImportPage from './ImportPage';
import { ok, settingsRoutes } from './testing';
import UsersPage from './UsersPage';

/** The employees import screen (issue 32): the file, its check, the rows, applying. */

vi.setConfig({ testTimeout: 30_000 });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

const ROUTES = [
  { path: '/settings', Component: UsersPage },
  { path: '/settings/import', Component: ImportPage },
];
beforeAll(() => preloadRoutes(ROUTES));

const batch = (more: Partial<PeopleBatch> = {}): PeopleBatch => ({
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

const person = (line: number | null, more: Partial<PeopleBatchRow>): PeopleBatchRow => ({
  line,
  action: 'unchanged',
  email: `line${line ?? 'none'}@company.ru`,
  name: 'Сотрудник',
  user_id: null,
  changes: [],
  errors: [],
  ...more,
});

const ROWS: PeopleBatchRow[] = [
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
const rowsAnswer =
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

function setup(
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
  restore = mock.restore;
  const view = renderRoutes(ROUTES, path);
  const calls = (prefix: string) => mock.requests.filter((r) => r.url.startsWith(prefix));
  const report = (loaded: number, total: number) => act(() => progress?.({ loaded, total }));
  return { ...view, ...mock, calls, report, ue: setupUser() };
}

const rows = () => screen.queryAllByTestId('import-row');
const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
};
const xlsx = (name = 'сотрудники.xlsx', size = 10) =>
  new File([new Uint8Array(size)], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

/** A promise the test settles by hand: the server's answer while the screen waits for it. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Settings, employees import', () => {
  it('opens from the employees tab: the way back, the columns, the template links and the choices', async () => {
    const { ue, router } = setup('/settings');
    await ue.click(await screen.findByRole('link', { name: 'Импорт' }));
    expect(await screen.findByRole('heading', { name: 'Импорт сотрудников' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/import');

    // no tab is marked; the link back is at the top
    const nav = screen.getByRole('navigation', { name: 'Разделы настроек' });
    expect(within(nav).queryByRole('link', { current: 'page' })).not.toBeInTheDocument();
    const back = screen.getAllByRole('link', { name: 'Сотрудники' }).find((a) => !nav.contains(a));
    expect(back).toHaveAttribute('href', '/settings');

    expect(screen.getByText(/Фамилия, Имя, Email, Отдел\./)).toBeInTheDocument();
    expect(screen.getByText(/Должность, Роль\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Excel (.xlsx)' })).toHaveAttribute(
      'href',
      '/api/admin/people-import/template?format=xlsx',
    );
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute(
      'href',
      '/api/admin/people-import/template?format=csv',
    );
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Удалить отсутствующих' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Удалить отсутствующих' })).toHaveAccessibleDescription(
      /Их история обучения сохранится/,
    );
    expect(screen.getByRole('checkbox', { name: 'Отправить приглашения' })).toBeChecked();
    expect(fileInput()).toHaveAttribute('accept', '.xlsx,.csv');
  });

  it('asks for a file before checking, and refuses one over 20 MB without sending it', async () => {
    const { ue, calls } = setup('/settings/import');
    await ue.click(await screen.findByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Выберите файл с сотрудниками');
    await ue.upload(fileInput(), xlsx('big.xlsx', 20 * 1024 * 1024 + 1));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Файл больше 20 МБ: разделите его на несколько файлов');
    expect(calls('/api/admin/people-import').filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends the choices before the file, shows the upload filling, then the check, then the result', async () => {
    const answer = deferred<MockReply>();
    const { ue, calls, report, router } = setup('/settings/import', {
      'POST /api/admin/people-import': () => answer.promise,
    });
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('checkbox', { name: 'Создавать отделы' }));
    await ue.click(screen.getByRole('checkbox', { name: 'Отправить приглашения' }));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));

    const [sent] = calls('/api/admin/people-import');
    const form = sent?.body as FormData;
    expect([...form.keys()]).toEqual(['create_departments', 'delete_missing', 'send_welcome', 'file']);
    expect(form.get('create_departments')).toBe('true');
    expect(form.get('delete_missing')).toBe('false');
    expect(form.get('send_welcome')).toBe('false');
    expect((form.get('file') as File).name).toBe('сотрудники.xlsx');

    report(40, 100);
    const bar = await screen.findByRole('progressbar', { name: 'Загрузка файла' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Загрузка файла: 40 %')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).toBeDisabled();

    report(100, 100);
    const checking = await screen.findByRole('progressbar', { name: 'Проверяем файл…' });
    // the check cannot be measured: no value, so it is read as busy
    expect(checking).not.toHaveAttribute('aria-valuenow');
    expect(screen.queryByRole('progressbar', { name: 'Загрузка файла' })).not.toBeInTheDocument();

    answer.resolve(ok({ result: { success: true }, data: batch() }, 201));
    expect(await screen.findByRole('heading', { name: 'Итоги проверки' })).toHaveFocus();
    expect(router.state.location.search).toBe('?batch=7');
    // the batch came with the answer: it is not asked for again
    expect(calls('/api/admin/people-import/7').filter((r) => !r.url.includes('/rows'))).toHaveLength(0);
  });

  it('shows the server’s words when the file is not a readable table', async () => {
    const { ue } = setup('/settings/import', {
      'POST /api/admin/people-import': {
        status: 422,
        data: {
          result: {
            success: false,
            message: 'Не удалось прочитать файл: загрузите таблицу в формате .xlsx или .csv',
          },
        },
      },
    });
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Не удалось прочитать файл: загрузите таблицу в формате .xlsx или .csv',
    );
    expect(screen.getByRole('button', { name: 'Проверить файл' })).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the counts, the departments to create, and each row with its changes or errors', async () => {
    const { calls } = setup('/settings/import?batch=7');
    await waitFor(() => expect(rows()).toHaveLength(8));
    expect(screen.getByText('Файл «сотрудники.xlsx» проверен', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Отмечено: Создавать отделы, Удалить отсутствующих')).toBeInTheDocument();
    const counts = within(screen.getByRole('list', { name: 'Итоги проверки' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(counts).toEqual(['Новые: 1', 'Изменятся: 1', 'Без изменений: 1', 'Будут удалены: 3', 'Ошибки: 2']);
    expect(screen.getByText('Будут созданы 2 отдела:')).toBeInTheDocument();
    expect(screen.getByText('Склад')).toBeInTheDocument();
    expect(screen.getByText('Логистика')).toBeInTheDocument();
    expect(screen.getByText(/^2 строки с ошибками будут пропущены\./)).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Строки файла' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Строка', 'Сотрудник', 'Действие', 'Изменения']);
    const [update, create, same, noName, badEmail, gone] = rows() as HTMLElement[];
    const cells = (row: HTMLElement | undefined) =>
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells(update)).toEqual([
      '2',
      'Иванов Иванivanov@company.ru',
      'Изменится',
      'Отдел: Отдел продаж → СкладДолжность: — → Старший менеджер',
    ]);
    // a new person: the fields besides the name and the address, which the person's cell shows
    expect(cells(create)).toEqual(['3', 'Новикова Нинаnovikova@company.ru', 'Новый', 'Отдел: ЛогистикаРоль: Ученик']);
    expect(cells(same)).toEqual(['4', 'Smith Johnsmith@company.ru', 'Без изменений', '—']);
    expect(cells(noName)).toEqual(['5', 'Петров—', 'Ошибка', 'Не заполнено: ИмяНе заполнено: Email']);
    expect(
      within(noName as HTMLElement)
        .getByText('Не заполнено: Имя')
        .closest('ul'),
    ).toHaveStyle({
      color: 'var(--mantine-color-red-8)',
    });
    expect(cells(badEmail)[3]).toBe('Некорректный email «bad@»');
    expect(cells(gone)).toEqual(['—', 'Борисова Аннаborisova@company.ru', 'Будет удалён', 'Нет в файле']);

    expect(calls('/api/admin/people-import/7/rows').map((r) => r.url)).toEqual([
      '/api/admin/people-import/7/rows?page=1&per_page=50',
    ]);
  });

  it('filters the rows by action and pages through them, 50 a page', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      person(i + 2, { action: i % 2 ? 'create' : 'unchanged', email: `p${i + 2}@company.ru` }),
    );
    const { ue, calls } = setup(
      '/settings/import?batch=7',
      {},
      {
        rows: many,
        shown: batch({ counts: { create: 60, update: 0, unchanged: 60, delete: 0, error: 0 }, new_departments: [] }),
      },
    );
    await waitFor(() => expect(rows()).toHaveLength(50));
    const filter = screen.getByRole('radiogroup', { name: 'Показать строки' });
    // only the actions some row has are offered
    expect(
      within(filter)
        .getAllByRole('radio')
        .map((r) => r.closest('div')?.textContent),
    ).toEqual(['Все (120)', 'Новые (60)', 'Без изменений (60)']);
    const pages = screen.getByRole('navigation', { name: 'Страницы строк файла' });
    expect(within(pages).getByText('1–50 из 120')).toBeInTheDocument();
    await ue.click(within(pages).getByRole('button', { name: 'Страница 3' }));
    await waitFor(() => expect(rows()).toHaveLength(20));

    await ue.click(within(filter).getByRole('radio', { name: 'Новые (60)' }));
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(rows().every((r) => within(r).queryByText('Новый'))).toBe(true);
    expect(calls('/api/admin/people-import/7/rows').map((r) => r.url)).toEqual([
      '/api/admin/people-import/7/rows?page=1&per_page=50',
      '/api/admin/people-import/7/rows?page=3&per_page=50',
      '/api/admin/people-import/7/rows?page=1&per_page=50&action=create',
    ]);
  });

  it('cannot apply a file that changes nobody, and says why', async () => {
    setup(
      '/settings/import?batch=7',
      {},
      {
        rows: ROWS.filter((r) => r.action === 'unchanged' || r.action === 'error'),
        shown: batch({ counts: { create: 0, update: 0, unchanged: 1, delete: 0, error: 2 }, new_departments: [] }),
      },
    );
    const apply = await screen.findByRole('button', { name: 'Применить изменения' });
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription(
      'Применять нечего: в файле нет изменений, кроме строк с ошибками. Исправьте их и загрузите файл снова.',
    );
  });

  it('asks before deleting, applies, says what was done and refreshes the employees list', async () => {
    const applied = batch({ status: 'applied', applied_at: '2026-01-15T09:30:00.000Z' });
    const { ue, calls, router } = setup('/settings', {
      'POST /api/admin/people-import/7/apply': ok({
        result: { success: true, message: 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 3.' },
        data: applied,
      }),
    });
    await waitFor(() => expect(calls('/api/admin/users?')).toHaveLength(1));
    await act(() => router.navigate('/settings/import?batch=7'));
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));

    const dialog = await screen.findByRole('dialog', { name: 'Удаление сотрудников' });
    expect(dialog).toHaveTextContent(
      'Будут удалены 3 сотрудника, которых нет в файле. Их история обучения сохранится, но войти на платформу они больше не смогут.',
    );
    expect(calls('/api/admin/people-import/7/apply')).toHaveLength(0);
    await ue.click(within(dialog).getByRole('button', { name: 'Применить и удалить' }));

    expect(await screen.findAllByText('Изменения применены. Добавлено: 1, изменено: 1, удалено: 3.')).toHaveLength(2);
    expect(screen.getByTestId('import-status')).toHaveTextContent('Применено');
    expect(await screen.findByText('Применено 15.01.2026, 12:30')).toBeInTheDocument();
    expect(screen.getByText('Созданы 2 отдела:')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Применить изменения' })).not.toBeInTheDocument();
    expect(calls('/api/admin/people-import/7/apply')).toHaveLength(1);

    await ue.click(screen.getByRole('link', { name: 'К списку сотрудников' }));
    // the list was read before the import: it is read again, not shown from the cache
    await waitFor(() => expect(calls('/api/admin/users?')).toHaveLength(2));
  });

  it('applies at once when nobody is deleted, with a bar while the server writes', async () => {
    const answer = deferred<MockReply>();
    const { ue } = setup(
      '/settings/import?batch=7',
      { 'POST /api/admin/people-import/7/apply': () => answer.promise },
      { shown: batch({ counts: { create: 1, update: 1, unchanged: 1, delete: 0, error: 0 } }) },
    );
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('progressbar', { name: 'Применяем изменения…' })).toBeInTheDocument();
    answer.resolve(
      ok({
        result: { success: true, message: 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 0.' },
        data: batch({ status: 'applied', applied_at: '2026-01-15T09:30:00.000Z' }),
      }),
    );
    expect(await screen.findByRole('link', { name: 'К списку сотрудников' })).toHaveAttribute('href', '/settings');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('after a 409 shows why and offers to check the same file again', async () => {
    const outdated =
      'С момента проверки сотрудники или отделы изменились. Загрузите файл ещё раз, чтобы увидеть актуальные изменения';
    const fresh = batch({ counts: { create: 1, update: 0, unchanged: 0, delete: 0, error: 0 }, new_departments: [] });
    const { ue, router, calls } = setup(
      '/settings/import',
      {
        'POST /api/admin/people-import': ok({ result: { success: true }, data: fresh }, 201),
        'POST /api/admin/people-import/7/apply': {
          status: 409,
          data: { result: { success: false, message: outdated } },
        },
      },
      { shown: fresh },
    );
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('checkbox', { name: 'Создавать отделы' }));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(outdated);
    // applying again would meet the same answer: the button is gone
    expect(screen.queryByRole('button', { name: 'Применить изменения' })).not.toBeInTheDocument();

    await ue.click(screen.getByRole('button', { name: 'Загрузить файл ещё раз' }));
    expect(router.state.location.search).toBe('');
    // the same file and choices, ready to be checked again
    expect(await screen.findByRole('button', { name: /Файл с сотрудниками/ })).toHaveTextContent('сотрудники.xlsx');
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).toBeChecked();
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    await screen.findByRole('heading', { name: 'Итоги проверки' });
    const uploads = calls('/api/admin/people-import').filter((r) => r.url === '/api/admin/people-import');
    expect(uploads).toHaveLength(2);
    expect(((uploads[1]?.body as FormData).get('file') as File).name).toBe('сотрудники.xlsx');
    expect((uploads[1]?.body as FormData).get('create_departments')).toBe('true');
  });

  it('says why applying was refused otherwise, and keeps the button', async () => {
    const { ue } = setup(
      '/settings/import?batch=7',
      {
        'POST /api/admin/people-import/7/apply': {
          status: 422,
          data: { result: { success: false, message: 'Нельзя удалить последнего администратора' } },
        },
      },
      { shown: batch({ counts: { create: 1, update: 0, unchanged: 0, delete: 0, error: 0 } }) },
    );
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Нельзя удалить последнего администратора');
    expect(screen.getByRole('button', { name: 'Применить изменения' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Загрузить файл ещё раз' })).not.toBeInTheDocument();
  });

  it('says when the check is gone, and offers another file', async () => {
    const { ue } = setup('/settings/import?batch=7', {
      'GET /api/admin/people-import/7': {
        status: 404,
        data: { result: { success: false, message: 'Проверка файла не найдена' } },
      },
    });
    expect(await screen.findByText('Проверка файла не найдена')).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Загрузить другой файл' }));
    expect(await screen.findByRole('button', { name: 'Проверить файл' })).toBeInTheDocument();
  });

  it('stacks each row in one cell on a phone, with the filter as a select', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          onchange: null,
          addListener: () => {},
          removeListener: () => {},
          addEventListener: () => {},
          removeEventListener: () => {},
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    const { ue } = setup('/settings/import?batch=7');
    await waitFor(() => expect(rows()).toHaveLength(8));
    const table = screen.getByRole('table', { name: 'Строки файла' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Строка файла']);
    const [update, , , , , , gone] = rows() as HTMLElement[];
    expect(within(update as HTMLElement).getAllByRole('cell')).toHaveLength(1);
    expect(update).toHaveTextContent('Строка 2');
    expect(update).toHaveTextContent('Должность: — → Старший менеджер');
    expect(gone).toHaveTextContent('Нет в файле');
    await ue.selectOptions(screen.getByRole('combobox', { name: 'Показать строки' }), 'Ошибки (2)');
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('shows "Доступ запрещен" to a learner and asks nothing', async () => {
    const { calls } = setup('/settings/import?batch=7', {}, { me: learnerUser });
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(calls('/api/admin/people-import')).toHaveLength(0);
  });
});
