import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../../test/render';
import type { AdminUserListItem } from '@lms/contract';
import type { MockReply, RecordedRequest } from '../../test/http';
import { learnerUser, ok, settingsSetup, users, usersAnswer } from './testing';

// typing into Mantine forms in jsdom is slow
vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

const rows = () => screen.getAllByTestId('user-row');

/** The query of each page request of the employees list (the tab never asks for all of them). */
const pageQueries = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.method === 'GET' && r.url.startsWith('/api/admin/users?'))
    .map((r) => Object.fromEntries(new URLSearchParams(r.url.split('?')[1])));

/** `n` employees 'Сотрудник 001 Имя' …, in the order the server sorts them. */
const many = (n: number): AdminUserListItem[] =>
  Array.from({ length: n }, (_, i) => {
    const last = `Сотрудник${String(i + 1).padStart(3, '0')}`;
    const login = `user${i + 1}@company.ru`;
    return {
      id: 1000 + i,
      name: `${last} Имя`,
      first_name: 'Имя',
      last_name: last,
      login,
      email: login,
      position: null,
      department: null,
      roles: { id: 4, name: 'Ученик' },
      last_activity: null,
    };
  });

async function openAdd(ue: ReturnType<typeof setup>['ue']) {
  await screen.findAllByTestId('user-row');
  await ue.click(screen.getByRole('button', { name: 'Добавить сотрудников' }));
  return screen.findByRole('form', { name: 'Добавление сотрудников' });
}

async function choose(ue: ReturnType<typeof setup>['ue'], label: string, option: string) {
  await ue.click(screen.getByRole('combobox', { name: label }));
  await ue.click(await screen.findByRole('option', { name: option }));
}

describe('Settings, employees tab', () => {
  it('shows the title, the three tab links and the employees table', async () => {
    setup('users');
    expect(await screen.findByRole('heading', { name: 'Настройка школы' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Разделы настроек' });
    expect(within(nav).getByRole('link', { name: 'Сотрудники' })).toHaveAttribute('href', '/settings');
    expect(within(nav).getByRole('link', { name: 'Сотрудники' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Отделы' })).toHaveAttribute('href', '/settings/departments');
    expect(within(nav).getByRole('link', { name: 'Учебные группы' })).toHaveAttribute('href', '/settings/groups');

    await waitFor(() => expect(rows()).toHaveLength(users.length));
    const ivanov = rows()[1]!;
    expect(within(ivanov).getByText('Иванов Иван')).toBeInTheDocument();
    expect(within(ivanov).getByText('ИИ')).toBeInTheDocument(); // initials avatar
    // First name, then last name, as on every screen (issue 30): Петрова Мария → МП.
    expect(within(rows()[0]!).getByText('МП')).toBeInTheDocument();
    expect(within(ivanov).getByText('Отдел продаж')).toBeInTheDocument();
    expect(within(ivanov).getByText('Ученик')).toBeInTheDocument();
    expect(within(ivanov).getByText('ivanov@company.ru')).toBeInTheDocument();
    expect(within(ivanov).getByText('5 мин. назад')).toBeInTheDocument();
    expect(within(rows()[0]!).getByText('Только что')).toBeInTheDocument();
    expect(within(rows()[2]!).getByText('Никогда')).toBeInTheDocument();
    expect(within(rows()[3]!).getByText('3 ч. назад')).toBeInTheDocument();
    expect(within(rows()[4]!).getByText('Неверная дата')).toBeInTheDocument();
  });

  it('asks the server for one page of 50, not for every employee', async () => {
    const { requests, calls } = setup('users');
    await waitFor(() => expect(rows()).toHaveLength(users.length));
    expect(pageQueries(requests)).toEqual([{ page: '1', per_page: '50' }]);
    expect(calls('GET', '/api/admin/users')).toHaveLength(0);
    // every employee fits on one page: no pagination
    expect(screen.queryByRole('navigation', { name: 'Страницы списка сотрудников' })).not.toBeInTheDocument();
  });

  it('searches by name or email on the server, once typing pauses', async () => {
    const { ue, requests } = setup('users');
    await screen.findAllByTestId('user-row');
    const search = screen.getByRole('searchbox', { name: 'Поиск по имени или email' });
    await ue.type(search, 'иВАн');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Иванов Иван');
    // debounced: no request for the half-typed 'и', 'иВ', 'иВА'
    expect(pageQueries(requests)).toEqual([
      { page: '1', per_page: '50' },
      { page: '1', per_page: '50', search: 'иВАн' },
    ]);

    await ue.clear(search);
    await ue.type(search, '  K.ADAMS@ ');
    // the rows found before stay until the new answer comes
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Adams Kate'));
    expect(rows()).toHaveLength(1);
    expect(pageQueries(requests).at(-1)).toEqual({ page: '1', per_page: '50', search: 'K.ADAMS@' });

    await ue.clear(search);
    await ue.type(search, 'нет такого');
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();
    expect(screen.queryAllByTestId('user-row')).toHaveLength(0);

    // cleared: the whole first page again (still fresh in the cache)
    await ue.click(screen.getByRole('button', { name: 'Очистить поиск' }));
    await waitFor(() => expect(rows()).toHaveLength(users.length));
    // only whole words were sent, never what was half typed
    expect(pageQueries(requests).map((q) => q.search)).toEqual([undefined, 'иВАн', 'K.ADAMS@', 'нет такого']);
  });

  it('"Экспорт в Excel" links to the employees export with the search the tab shows', async () => {
    const { ue } = setup('users');
    await screen.findAllByTestId('user-row');
    const exportQuery = async (name: string) => {
      await ue.click(screen.getByRole('button', { name: 'Экспорт в Excel' }));
      const link = await screen.findByRole('menuitem', { name });
      expect(link).toHaveAttribute('download');
      const [path, query] = (link.getAttribute('href') ?? '').split('?');
      expect(path).toBe('/api/admin/users/export');
      await ue.keyboard('{Escape}');
      const params = Object.fromEntries(new URLSearchParams(query));
      expect(params.tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      delete params.tz;
      return params;
    };
    expect(await exportQuery('Excel (.xlsx)')).toEqual({ format: 'xlsx' });

    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по имени или email' }), '  иВАн ');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(await exportQuery('Excel (.xlsx)')).toEqual({ format: 'xlsx', search: 'иВАн' });
    expect(await exportQuery('CSV')).toEqual({ format: 'csv', search: 'иВАн' });
  });

  it('debounces the search by about 300 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { requests } = setup('users');
      await screen.findAllByTestId('user-row');
      const search = screen.getByRole('searchbox', { name: 'Поиск по имени или email' });
      fireEvent.change(search, { target: { value: 'smith' } });
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(pageQueries(requests)).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(150));
      await waitFor(() => expect(pageQueries(requests)).toHaveLength(2));
      expect(pageQueries(requests)[1]).toEqual({ page: '1', per_page: '50', search: 'smith' });
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()[0]).toHaveTextContent('Smith John');
    } finally {
      vi.useRealTimers();
    }
  });

  it('pages through many employees, keeping the rows shown while the next page loads', async () => {
    const all = many(120);
    const answer = usersAnswer(all);
    let hold: (() => void) | null = null;
    const { ue, requests } = setup('users', {
      'GET /api/admin/users': (request) =>
        request.url.includes('page=2')
          ? new Promise<MockReply>((resolve) => {
              hold = () => resolve(answer(request));
            })
          : answer(request),
    });
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(rows()[0]).toHaveTextContent('Сотрудник001 Имя');
    const nav = screen.getByRole('navigation', { name: 'Страницы списка сотрудников' });
    expect(within(nav).getByText('1–50 из 120')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Страница 3' })).toBeInTheDocument();

    await ue.click(within(nav).getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(pageQueries(requests).at(-1)).toEqual({ page: '2', per_page: '50' }));
    // page 1 stays while page 2 loads: no skeleton, no flash
    expect(rows()).toHaveLength(50);
    expect(rows()[0]).toHaveTextContent('Сотрудник001 Имя');
    expect(screen.queryByTestId('settings-loading-row')).not.toBeInTheDocument();
    act(() => hold?.());
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Сотрудник051 Имя'));
    expect(rows()).toHaveLength(50);
    expect(within(nav).getByText('51–100 из 120')).toBeInTheDocument();

    await ue.click(within(nav).getByRole('button', { name: 'Следующая страница' }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(rows()[0]).toHaveTextContent('Сотрудник101 Имя');
    expect(pageQueries(requests).at(-1)).toEqual({ page: '3', per_page: '50' });

    // a new search starts again at page 1
    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по имени или email' }), 'сотрудник0');
    await waitFor(() =>
      expect(pageQueries(requests).at(-1)).toEqual({ page: '1', per_page: '50', search: 'сотрудник0' }),
    );
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Сотрудник001 Имя'));
    expect(screen.getByText('1–50 из 99')).toBeInTheDocument();
  });

  it('sanitizes table cells as HTML', async () => {
    const evil = {
      ...users[1]!,
      id: 99,
      name: 'Злой <b>Хакер</b><img src="x" onerror="alert(1)"><script>alert(2)</script>',
      position: '<a href="javascript:alert(3)">ссылка</a>',
    };
    const { container } = setup('users', { 'GET /api/admin/users': ok({ result: { success: true }, items: [evil] }) });
    const row = await screen.findByTestId('user-row');
    expect(row).toHaveTextContent('Злой Хакер');
    expect(row.querySelector('b')).toHaveTextContent('Хакер');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  it('shows "Доступ запрещен" to a learner and makes no settings call', async () => {
    const { requests } = setup('users', {}, learnerUser);
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Настройка школы' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.url.startsWith('/api/admin') || r.url.startsWith('/api/study'))).toEqual([]);
  });

  it('shows the load error with a toast and a retry', async () => {
    setup('users', { 'GET /api/admin/users': { status: 500, data: {} } });
    const state = await screen.findByText('Ошибка при загрузке данных', { selector: '.mantine-Text-root' });
    expect(state.closest('[role="alert"]')).not.toBeNull();
    // the toast as well
    await waitFor(() => expect(screen.getAllByText('Ошибка при загрузке данных')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });
});

describe('Add students', () => {
  it('keeps at least one student: no remove button on the last one', async () => {
    const { ue } = setup('users');
    const form = await openAdd(ue);
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(1);
    expect(within(form).queryByRole('button', { name: /Удалить ученика/ })).not.toBeInTheDocument();
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(3);
    await ue.click(within(form).getByRole('button', { name: 'Удалить ученика #2' }));
    await ue.click(within(form).getByRole('button', { name: 'Удалить ученика #1' }));
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(1);
    expect(within(form).queryByRole('button', { name: /Удалить ученика/ })).not.toBeInTheDocument();
  });

  it('marks every empty required field at once, in every student; a filled field loses its mark (issue 30)', async () => {
    const { ue, calls } = setup('users');
    const form = await openAdd(ue);
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    // One toast: the first problem in the order of the spec.
    expect(await screen.findByText('Пожалуйста, выберите роль и отдел')).toBeInTheDocument();
    const field = (scope: HTMLElement, name: string) =>
      within(scope).getByRole(name === 'Роль' || name === 'Отдел' ? 'combobox' : 'textbox', { name });
    expect(field(form, 'Роль')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'Отдел')).toHaveAttribute('aria-invalid', 'true');
    const [first, second] = within(form).getAllByRole('group', { name: /^Ученик #/ });
    for (const block of [first!, second!]) {
      for (const name of ['Фамилия', 'Имя', 'Email']) {
        expect([name, field(block, name).getAttribute('aria-invalid')]).toEqual([name, 'true']);
      }
      expect(field(block, 'Должность')).not.toHaveAttribute('aria-invalid');
    }

    await ue.type(field(second!, 'Имя'), 'Пётр');
    expect(field(second!, 'Имя')).not.toHaveAttribute('aria-invalid');
    expect(field(second!, 'Фамилия')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'Роль')).toHaveAttribute('aria-invalid', 'true');
    await choose(ue, 'Роль', 'Ученик');
    expect(field(form, 'Роль')).not.toHaveAttribute('aria-invalid');
    expect(field(form, 'Отдел')).toHaveAttribute('aria-invalid', 'true');
    expect(field(first!, 'Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls('POST')).toHaveLength(0);
  });

  it('moves the focus to the new student in the click itself, so typing that follows goes where it is aimed', async () => {
    const { ue } = setup('users');
    const form = await openAdd(ue);
    act(() => {
      fireEvent.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    });
    const blocks = within(form).getAllByRole('group', { name: /^Ученик #/ });
    expect(blocks).toHaveLength(2);
    expect(within(blocks[1]!).getByRole('textbox', { name: 'Фамилия' })).toHaveFocus();
  });

  it('checks role and department, then each student (#N), then creates them one by one', async () => {
    const created: unknown[] = [];
    const { ue, calls, requests } = setup('users', {
      'POST /api/admin/users': (request) => {
        created.push(request.body);
        const body = request.body as { last_name: string; first_name: string };
        return ok(
          {
            result: { success: true, message: `Пользователь ${body.last_name} ${body.first_name} успешно добавлен` },
            data: { id: 100 + created.length },
          },
          201,
        );
      },
    });
    const form = await openAdd(ue);
    expect(within(form).getByText('@company.ru')).toBeInTheDocument();
    const submit = within(form).getByRole('button', { name: 'Добавить' });

    await ue.click(submit);
    expect(await screen.findByText('Пожалуйста, выберите роль и отдел')).toBeInTheDocument();

    await choose(ue, 'Роль', 'Ученик');
    await ue.click(submit);
    expect(await screen.findAllByText('Пожалуйста, выберите роль и отдел')).toHaveLength(2);
    await choose(ue, 'Отдел', 'ИТ-отдел');

    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    const [first, second] = within(form).getAllByRole('group', { name: /^Ученик #/ });
    await ue.type(within(first!).getByRole('textbox', { name: 'Фамилия' }), 'Орлова');
    await ue.type(within(first!).getByRole('textbox', { name: 'Имя' }), 'Ольга');
    await ue.type(within(first!).getByRole('textbox', { name: 'Email' }), 'o.orlova');
    await ue.type(within(first!).getByRole('textbox', { name: 'Должность' }), 'Бухгалтер');

    await ue.type(within(second!).getByRole('textbox', { name: 'Фамилия' }), 'Седов');
    await ue.click(submit);
    expect(await screen.findByText('Пожалуйста, заполните все поля у ученика #2')).toBeInTheDocument();

    await ue.type(within(second!).getByRole('textbox', { name: 'Имя' }), 'Пётр');
    await ue.type(within(second!).getByRole('textbox', { name: 'Email' }), 'p sedov');
    await ue.click(submit);
    expect(await screen.findByText('Некорректный email у ученика #2')).toBeInTheDocument();
    expect(calls('POST')).toHaveLength(0);

    const email = within(second!).getByRole('textbox', { name: 'Email' });
    await ue.clear(email);
    await ue.type(email, 'p.sedov');
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Переговоры' }));
    resetToasts(); // at most 5 toasts show at once
    await ue.click(submit);

    expect(await screen.findByText('Пользователь Орлова Ольга успешно добавлен')).toBeInTheDocument();
    expect(await screen.findByText('Пользователь Седов Пётр успешно добавлен')).toBeInTheDocument();
    expect(created).toEqual([
      {
        first_name: 'Ольга',
        last_name: 'Орлова',
        login: 'o.orlova@company.ru',
        password: '',
        department_id: 11,
        role_id: 4,
        course_ids: [103],
        position: 'Бухгалтер',
      },
      {
        first_name: 'Пётр',
        last_name: 'Седов',
        login: 'p.sedov@company.ru',
        password: '',
        department_id: 11,
        role_id: 4,
        course_ids: [103],
        position: '',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Добавление сотрудников' })).not.toBeInTheDocument());
    // the current page is asked again
    await waitFor(() => expect(pageQueries(requests)).toHaveLength(2));
    expect(pageQueries(requests)[1]).toEqual({ page: '1', per_page: '50' });
  });

  it('reports a failed student and keeps only that one in the form', async () => {
    let n = 0;
    const { ue } = setup('users', {
      'POST /api/admin/users': () =>
        ++n === 1
          ? ok(
              { result: { success: true, message: 'Пользователь Орлова Ольга успешно добавлен' }, data: { id: 1 } },
              201,
            )
          : { status: 422, data: { result: { success: false, message: 'Пользователь с таким email уже существует' } } },
    });
    const form = await openAdd(ue);
    await choose(ue, 'Роль', 'Ученик');
    await choose(ue, 'Отдел', 'ИТ-отдел');
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    const blocks = within(form).getAllByRole('group', { name: /^Ученик #/ });
    for (const [i, [last, first, mail]] of [
      ['Орлова', 'Ольга', 'orlova'],
      ['Иванов', 'Иван', 'ivanov'],
    ].entries()) {
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Фамилия' }), last!);
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Имя' }), first!);
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Email' }), mail!);
    }
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(
      await screen.findByText('Ошибка при добавлении пользователя: Пользователь с таким email уже существует'),
    ).toBeInTheDocument();
    const left = within(form).getAllByRole('group', { name: /^Ученик #/ });
    expect(left).toHaveLength(1);
    expect(within(left[0]!).getByRole('textbox', { name: 'Фамилия' })).toHaveValue('Иванов');
  });
});

describe('Edit student', () => {
  const detail = (id: number, courses: { id: number; name: string }[]) => {
    const user = users.find((u) => u.id === id)!;
    return {
      [`GET /api/admin/users/${id}`]: ok({ result: { success: true, data: { ...user, courses } } }),
      [`GET /api/admin/users/${id}/courses`]: ok({ result: { success: true, data: courses } }),
    };
  };

  it('saves the fields and sends only the difference of the course sets', async () => {
    const { ue, calls } = setup('users', {
      ...detail(2, [
        { id: 101, name: 'Охрана труда' },
        { id: 102, name: 'Информационная безопасность' },
      ]),
      'PUT /api/admin/users/2': ok({ result: { success: true, message: 'Пользователь Иванов Иван успешно обновлен' } }),
      'POST /api/admin/user-courses/attach': ok({ result: { success: true } }),
      'POST /api/admin/user-courses/detach': ok({ result: { success: true } }),
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Иванов Иван'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    expect(within(form).getByRole('textbox', { name: 'Email' })).toHaveValue('ivanov');
    expect(within(form).getByText('@company.ru')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Фамилия' })).toHaveValue('Иванов');

    await ue.click(within(form).getByLabelText('Убрать курс Охрана труда'));
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Переговоры' }));
    const position = within(form).getByRole('textbox', { name: 'Должность' });
    await ue.clear(position);
    await ue.type(position, 'Старший менеджер');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByText('Пользователь Иванов Иван успешно обновлен')).toBeInTheDocument();
    expect(calls('PUT')[0]?.body).toEqual({
      first_name: 'Иван',
      last_name: 'Иванов',
      login: 'ivanov@company.ru',
      department_id: 10,
      role_id: 4,
      position: 'Старший менеджер',
    });
    expect(calls('POST', '/api/admin/user-courses/attach').map((r) => r.body)).toEqual([
      { user_id: 2, course_ids: [103] },
    ]);
    expect(calls('POST', '/api/admin/user-courses/detach').map((r) => r.body)).toEqual([
      { user_id: 2, course_ids: [101] },
    ]);
  });

  it('sends no course call when the set did not change, and checks the fields', async () => {
    const { ue, calls } = setup('users', {
      ...detail(2, [{ id: 101, name: 'Охрана труда' }]),
      'PUT /api/admin/users/2': { status: 422, data: { result: { success: false, message: 'Некорректный email' } } },
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Иванов Иван'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    const first = within(form).getByRole('textbox', { name: 'Имя' });
    const last = within(form).getByRole('textbox', { name: 'Фамилия' });
    await ue.clear(first);
    await ue.clear(last);
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Пожалуйста, заполните все поля')).toBeInTheDocument();
    // Both empty fields at once (issue 30); a filled one loses its mark.
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(last).toHaveAttribute('aria-invalid', 'true');
    await ue.type(first, 'Иван');
    expect(first).not.toHaveAttribute('aria-invalid');
    expect(last).toHaveAttribute('aria-invalid', 'true');
    await ue.type(last, 'Иванов');
    const email = within(form).getByRole('textbox', { name: 'Email' });
    await ue.clear(email);
    await ue.type(email, 'ivanov@');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Некорректный email')).toBeInTheDocument();
    expect(calls('PUT')).toHaveLength(0);

    await ue.clear(email);
    await ue.type(email, 'ivanov');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Ошибка при обновлении пользователя: Некорректный email')).toBeInTheDocument();
    expect(calls('POST')).toHaveLength(0);
  });

  it('refuses to delete one’s own account without asking the server', async () => {
    const { ue, calls } = setup('users', detail(1, []));
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Петрова Мария'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Вы не можете удалить свою собственную учетную запись')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Удаление сотрудника' })).not.toBeInTheDocument();
    expect(calls('DELETE')).toHaveLength(0);
  });

  it('deletes another user after confirming, and resets a password after confirming', async () => {
    const { ue, calls, requests } = setup('users', {
      ...detail(3, []),
      'DELETE /api/admin/users/3': ok({ result: { success: true, message: 'Пользователь Smith John успешно удален' } }),
      'POST /api/admin/users/3/reset-password': ok({
        result: { success: true, message: 'Пароль успешно сброшен и отправлен на email пользователя' },
      }),
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Smith John'));
    let form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });

    await ue.click(within(form).getByRole('button', { name: 'Сбросить пароль' }));
    const reset = await screen.findByRole('dialog', { name: 'Сброс пароля' });
    await ue.click(within(reset).getByRole('button', { name: 'Сбросить' }));
    expect(await screen.findByText('Пароль успешно сброшен и отправлен на email пользователя')).toBeInTheDocument();
    expect(calls('POST', '/api/admin/users/3/reset-password')).toHaveLength(1);

    form = screen.getByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    const confirm = await screen.findByRole('dialog', { name: 'Удаление сотрудника' });
    expect(calls('DELETE')).toHaveLength(0);
    await ue.click(within(confirm).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Пользователь Smith John успешно удален')).toBeInTheDocument();
    expect(calls('DELETE', '/api/admin/users/3')).toHaveLength(1);
    // the page shown is asked again
    await waitFor(() => expect(pageQueries(requests)).toHaveLength(2));
  });

  it('shows the error of a failed password reset with the server message', async () => {
    const { ue } = setup('users', {
      ...detail(3, []),
      'POST /api/admin/users/3/reset-password': {
        status: 404,
        data: { result: { success: false, message: 'Пользователь не найден' } },
      },
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Smith John'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Сбросить пароль' }));
    await ue.click(
      within(await screen.findByRole('dialog', { name: 'Сброс пароля' })).getByRole('button', { name: 'Сбросить' }),
    );
    expect(await screen.findByText('Ошибка при сбросе пароля: Пользователь не найден')).toBeInTheDocument();
  });
});
