import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminUserListItem } from '@lms/contract';
import type { MockReply } from '../../test/http';
import { learnerUser, ok, pageQueries, settingsSetup, users, usersAnswer } from './testing';

// typing into Mantine forms in jsdom is slow
vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

const rows = () => screen.getAllByTestId('user-row');

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
      from_directory: false,
      manager: null,
    };
  });

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
