import type { AuthUser } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { learnerUser } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import AnalyticsPage from './AnalyticsPage';
import { analytic, courseDetail, employeeDetail, managerUser } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

type Handler = MockReply | ((request: RecordedRequest) => MockReply);
const ok = (data: unknown): MockReply => ({ status: 200, data });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(overrides: Record<string, Handler> = {}, me: AuthUser = managerUser) {
  const mock = mockHttp({
    'GET /api/check-auth': ok(me),
    'GET /api/analytics/users': ok({ result: { success: true, analytic: analytic() } }),
    'GET /api/analytics/users/11': ok({ result: { success: true, user: employeeDetail } }),
    'GET /api/analytics/courses/101/user/11': ok({ result: { success: true, course: courseDetail } }),
    ...overrides,
  });
  restore = mock.restore;
  const view = renderRoutes([{ path: '/analytics', Component: AnalyticsPage }], '/analytics');
  return { ...view, ...mock, ue: setupUser() };
}

const cards = () => screen.queryAllByTestId('employee-card');
const cardNames = () => cards().map((c) => within(c).getByRole('button').textContent);
const count = () => screen.getByTestId('employees-count').textContent;
const filter = (name: string) => screen.getByRole('button', { name });

describe('Analytics page', () => {
  it('shows the heading, the count and the three groups of cards', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Аналитика', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(5));
    expect(screen.getByRole('heading', { name: 'Мои сотрудники' })).toBeInTheDocument();
    expect(count()).toBe('5');
    for (const title of ['Просроченный дедлайн', 'Почти просроченный дедлайн', 'Все идеально']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    const first = cards()[0]!;
    expect(first).toHaveTextContent('Кузнецова Мария');
    expect(first).toHaveTextContent('Охрана труда');
    expect(first).toHaveTextContent('01.03.2026');
    expect(first).toHaveTextContent('40%');
  });

  it('filters by one group at a time; clicking the active filter clears it', async () => {
    const { ue } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(filter('Просроченный'));
    expect(filter('Просроченный')).toHaveAttribute('aria-pressed', 'true');
    expect(cardNames()).toEqual(['Кузнецова Мария']);
    expect(count()).toBe('1');
    expect(screen.queryByRole('heading', { name: 'Все идеально' })).not.toBeInTheDocument();

    await ue.click(filter('Все в порядке'));
    expect(filter('Просроченный')).toHaveAttribute('aria-pressed', 'false');
    expect(filter('Все в порядке')).toHaveAttribute('aria-pressed', 'true');
    expect(cardNames()).toEqual(['Морозова Екатерина', 'Смирнов Алексей', 'Марков Олег']);

    await ue.click(filter('Все в порядке'));
    expect(filter('Все в порядке')).toHaveAttribute('aria-pressed', 'false');
    expect(cards()).toHaveLength(5);
    expect(count()).toBe('5');
  });

  it('searches names case-insensitively and drops empty groups', async () => {
    const { ue } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    const search = screen.getByRole('searchbox', { name: 'Поиск по сотрудникам' });
    await ue.type(search, 'мАр');
    expect(cardNames()).toEqual(['Кузнецова Мария', 'Марков Олег']);
    expect(count()).toBe('2');
    expect(screen.queryByRole('heading', { name: 'Почти просроченный дедлайн' })).not.toBeInTheDocument();

    await ue.click(filter('Почти просрочено'));
    expect(cards()).toHaveLength(0);
    expect(screen.getByText('По запросу "мАр" ничего не найдено')).toBeInTheDocument();
  });

  it('an empty status filter says "Нет сотрудников с таким статусом", with a way back', async () => {
    const { ue } = setup({
      'GET /api/analytics/users': ok({ result: { success: true, analytic: { ...analytic(), almost_overdue: [] } } }),
    });
    await waitFor(() => expect(cards()).toHaveLength(4));
    await ue.click(filter('Почти просрочено'));
    expect(cards()).toHaveLength(0);
    expect(count()).toBe('0');
    expect(screen.getByText('Нет сотрудников с таким статусом')).toBeInTheDocument();
    expect(screen.queryByText('Сотрудников пока нет')).not.toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Сбросить фильтр' }));
    expect(filter('Почти просрочено')).toHaveAttribute('aria-pressed', 'false');
    expect(cards()).toHaveLength(4);
  });

  it('an empty team says "Сотрудников пока нет", whatever the filter', async () => {
    const { ue } = setup({
      'GET /api/analytics/users': ok({
        result: { success: true, analytic: { overdue: [], almost_overdue: [], in_order: [] } },
      }),
    });
    expect(await screen.findByText('Сотрудников пока нет')).toBeInTheDocument();
    await ue.click(filter('Просроченный'));
    expect(screen.getByText('Сотрудников пока нет')).toBeInTheDocument();
    expect(screen.queryByText('Нет сотрудников с таким статусом')).not.toBeInTheDocument();
  });

  it('"Экспорт в Excel" links to the xlsx and csv export with the shown filter and search', async () => {
    const { ue } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    const exportQuery = async (name: string) => {
      await ue.click(screen.getByRole('button', { name: 'Экспорт в Excel' }));
      const link = await screen.findByRole('menuitem', { name });
      expect(link).toHaveAttribute('download');
      const [path, query] = (link.getAttribute('href') ?? '').split('?');
      expect(path).toBe('/api/analytics/export');
      await ue.keyboard('{Escape}');
      const params = Object.fromEntries(new URLSearchParams(query));
      expect(params.tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      delete params.tz;
      return params;
    };
    expect(await exportQuery('Excel (.xlsx)')).toEqual({ format: 'xlsx' });

    await ue.click(filter('Почти просрочено'));
    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по сотрудникам' }), ' Волков ');
    expect(cardNames()).toEqual(['Волков Дмитрий']);
    expect(await exportQuery('Excel (.xlsx)')).toEqual({ format: 'xlsx', status: 'almost_overdue', search: 'Волков' });
    expect(await exportQuery('CSV')).toEqual({ format: 'csv', status: 'almost_overdue', search: 'Волков' });

    await ue.click(filter('Почти просрочено'));
    expect(await exportQuery('CSV')).toEqual({ format: 'csv', search: 'Волков' });
  });

  it('"CSV по курсам" links to the per-course export with the shown filter and search', async () => {
    const { ue } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(filter('Просроченный'));
    await ue.click(screen.getByRole('button', { name: 'Экспорт в Excel' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Excel (.xlsx)', 'CSV', 'CSV по курсам']);
    const link = screen.getByRole('menuitem', { name: 'CSV по курсам' });
    expect(link).toHaveAttribute('download');
    const [path, query] = (link.getAttribute('href') ?? '').split('?');
    expect(path).toBe('/api/analytics/export/courses');
    const params = Object.fromEntries(new URLSearchParams(query));
    delete params.tz;
    expect(params).toEqual({ format: 'csv', status: 'overdue' });
  });

  it('list view: deadline, initials, email, course, progress ring and relative last activity', async () => {
    const { ue } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(screen.getByRole('button', { name: 'Список' }));
    const table = screen.getByRole('table', { name: 'Мои сотрудники' });
    const rows = within(table).getAllByTestId('employee-row');
    expect(rows).toHaveLength(5);
    expect(cards()).toHaveLength(0);

    const [overdue, almost, fine, never, invalid] = rows as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(overdue).getByTestId('deadline')).toHaveTextContent('01.03.2026');
    expect(within(overdue).getByText('МК')).toBeInTheDocument(); // first letters of the first and last name: Мария Кузнецова
    expect(overdue).toHaveTextContent('user11@company.ru');
    expect(overdue).toHaveTextContent('Охрана труда');
    expect(overdue).toHaveTextContent('40%');
    expect(within(overdue).getByRole('img', { name: 'Прогресс 40%' })).toBeInTheDocument();
    expect(overdue).toHaveTextContent('5 мин. назад');
    expect(almost).toHaveTextContent('3 ч. назад');
    expect(fine).toHaveTextContent('Только что');
    expect(never).toHaveTextContent('Никогда');
    expect(invalid).toHaveTextContent('Неверная дата');

    // the tooltips (after 200 ms) are checked in the browser test: no real-time waits here
  });

  it('opens the employee modal and the course detail, and goes back', async () => {
    const { ue, requests } = setup();
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(cards()[0]!);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Охрана труда')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Скопировать ID сотрудника: 11' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Должность в Отдел продаж | user11@company.ru');
    expect(dialog).toHaveTextContent('Был онлайн: Никогда');
    expect(dialog).toHaveTextContent('Общий прогресс');
    expect(dialog).toHaveTextContent('2/5 пройдено занятий');

    await ue.click(within(dialog).getByTestId('employee-course'));
    const panel = await within(dialog).findByTestId('course-detail-panel');
    expect(requests.some((r) => r.url === '/api/analytics/courses/101/user/11')).toBe(true);
    expect(panel).toHaveTextContent('Начат: 10.01.2026 | Срок до: 01.03.2026');
    expect(panel).toHaveTextContent('2/5 пройдено занятий');
    expect(within(panel).getByRole('img', { name: 'Модуль пройден' })).toBeInTheDocument();

    // several modules open at once
    await ue.click(within(panel).getByRole('button', { name: /Введение/ }));
    await ue.click(within(panel).getByRole('button', { name: /Практика/ }));
    const items = within(panel).getAllByTestId('analytics-item');
    expect(items.map((i) => [i.textContent, i.dataset.status])).toEqual([
      ['Урок: Правила', 'completed'],
      ['Тест: Проверка', 'completed'],
      ['Тест: Итоговый тест', 'failed'],
      ['Урок: Разбор', 'not_started'],
      ['SCORM-пакет: Инструктаж · 40%', 'failed'],
    ]);

    await ue.click(within(dialog).getByRole('button', { name: 'Назад' }));
    expect(await within(dialog).findByTestId('employee-courses-panel')).toBeInTheDocument();
  });

  it('toasts the server message or the default when the employee or course cannot be loaded', async () => {
    const { ue } = setup({
      'GET /api/analytics/users/11': {
        status: 404,
        data: { result: { success: false, message: 'Сотрудник не найден' } },
      },
      'GET /api/analytics/users/12': { status: 500, data: {} },
    });
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(cards()[0]!);
    expect(await screen.findByText('Сотрудник не найден')).toBeInTheDocument();
    await ue.click(cards()[1]!);
    expect(await screen.findByText('Ошибка при получении данных пользователя')).toBeInTheDocument();
  });

  it('toasts the course error and returns to the course list', async () => {
    const { ue } = setup({ 'GET /api/analytics/courses/101/user/11': { status: 500, data: {} } });
    await waitFor(() => expect(cards()).toHaveLength(5));
    await ue.click(cards()[0]!);
    const dialog = await screen.findByRole('dialog');
    await ue.click(await within(dialog).findByTestId('employee-course'));
    expect(await screen.findByText('Ошибка при получении данных курса')).toBeInTheDocument();
    expect(await within(dialog).findByTestId('employee-courses-panel')).toBeInTheDocument();
  });

  it('shows "Доступ запрещен" to a role without analytics and does not ask the server', async () => {
    const { requests } = setup({}, learnerUser);
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/analytics/users')).toBe(false);
  });

  it('shows "Доступ запрещен" when the server refuses the overview', async () => {
    setup({
      'GET /api/analytics/users': { status: 403, data: { result: { success: false, message: 'Доступ запрещен' } } },
    });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
  });
});
