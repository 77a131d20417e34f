import type { AuditEntry, AuthUser } from '@lms/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { learnerUser } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { AUDIT_SEARCH_DEBOUNCE_MS } from './audit';
import AuditPage from './AuditPage';
import { ok, settingsRoutes } from './testing';
import UsersPage, { SEARCH_DEBOUNCE_MS } from './UsersPage';

let restore: () => void = () => {};
const matchMedia = window.matchMedia;
afterEach(() => {
  restore();
  resetToasts();
  window.matchMedia = matchMedia;
});

const entry = (id: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-01-15T09:05:00.000Z',
  actor: 'Петрова Мария',
  source: 'manual',
  action: 'user_updated',
  subject: 'user',
  subject_id: 2,
  subject_name: 'Иванов Иван',
  course: null,
  changes: [],
  ...more,
});

const ENTRIES: AuditEntry[] = [
  entry(4, {
    at: '2026-01-16T07:30:00.000Z',
    changes: [
      { field: 'department', before: 'Продажи', after: 'Склад' },
      { field: 'position', before: 'Кассир', after: null },
    ],
  }),
  entry(3, {
    actor: null,
    source: 'directory',
    action: 'course_assigned',
    subject: 'department',
    subject_id: 10,
    subject_name: 'Продажи',
    course: 'Охрана труда',
  }),
  entry(2, {
    source: 'import',
    action: 'user_created',
    subject_name: 'Орлова Вера',
    changes: [
      { field: 'last_name', before: null, after: 'Орлова' },
      { field: 'email', before: null, after: 'orlova@company.ru' },
    ],
  }),
  entry(1, { action: 'user_deleted', subject_name: 'Smith John' }),
];

/** The server's answer: `list` filtered by action and source, searched by either name, one page of it. */
const auditAnswer =
  (list: AuditEntry[]) =>
  (request: RecordedRequest): MockReply => {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const search = (params.get('search') ?? '').toLowerCase();
    const found = list.filter(
      (e) =>
        [null, e.action as string].includes(params.get('action')) &&
        [null, e.source as string].includes(params.get('source')) &&
        [e.subject_name, e.actor ?? ''].some((name) => name.toLowerCase().includes(search)),
    );
    const items = found.slice((page - 1) * perPage, page * perPage);
    return ok({ result: { success: true }, items, total: found.length, page, per_page: perPage });
  };

function setup(log: (r: RecordedRequest) => MockReply = auditAnswer(ENTRIES), me?: AuthUser) {
  const mock = mockHttp(settingsRoutes({ 'GET /api/admin/audit': log }, me));
  restore = mock.restore;
  const view = renderRoutes(
    [
      { path: '/settings', Component: UsersPage },
      { path: '/settings/audit', Component: AuditPage },
    ],
    '/settings/audit',
  );
  const auditCalls = () =>
    mock.requests
      .filter((r) => r.url.startsWith('/api/admin/audit'))
      .map((r) => Object.fromEntries(new URLSearchParams(r.url.split('?')[1])));
  return { ...view, auditCalls, ue: setupUser() };
}

const rows = () => screen.queryAllByTestId('audit-row');
const texts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

async function choose(ue: ReturnType<typeof setup>['ue'], label: string, option: string) {
  await ue.click(screen.getByRole('combobox', { name: label }));
  await ue.click(await screen.findByRole('option', { name: option }));
}

describe('Settings, audit tab', { timeout: 20_000 }, () => {
  it('is a tab of the settings, between the sign-in tab and the mail log, and lists who changed what', async () => {
    const { auditCalls } = setup();
    expect(await screen.findByRole('heading', { name: 'Настройка школы' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Разделы настроек' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links.slice(2)).toEqual(['Учебные группы', 'Вход', 'Журнал изменений', 'Журнал писем', 'Сертификаты']);
    const tab = within(nav).getByRole('link', { name: 'Журнал изменений' });
    expect(tab).toHaveAttribute('href', '/settings/audit');
    expect(tab).toHaveAttribute('aria-current', 'page');

    await waitFor(() => expect(rows()).toHaveLength(4));
    const table = screen.getByRole('table', { name: 'Журнал изменений' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Время', 'Кто', 'Действие', 'Кого касается', 'Изменения']);

    const [updated, assigned, created, deleted] = rows() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    // On the company's clock (Moscow in the config): 07:30 UTC is 10:30 there.
    const time = await within(updated).findByText('16.01.2026, 10:30');
    expect(time).toHaveAttribute('datetime', '2026-01-16T07:30:00.000Z');
    expect(texts(updated).slice(1, 4)).toEqual(['Петрова МарияВручную', 'Сотрудник изменён', 'Иванов Иван']);
    // Each change on its own line, an emptied field as '—'.
    expect(within(updated).getByText('Продажи → Склад').textContent).toBe('Отдел: Продажи → Склад');
    expect(within(updated).getByText('Кассир → —').textContent).toBe('Должность: Кассир → —');

    expect(texts(assigned).slice(1)).toEqual([
      'Синхронизация по расписаниюСинхронизация с каталогом',
      'Курс назначен',
      'Отдел «Продажи»',
      'Курс «Охрана труда»',
    ]);
    // A new employee's fields as values alone.
    expect(texts(created).slice(2)).toEqual([
      'Сотрудник добавлен',
      'Орлова Вера',
      'Фамилия: ОрловаEmail: orlova@company.ru',
    ]);
    expect(within(created).getByText('Импорт из файла')).toBeInTheDocument();
    expect(texts(deleted).slice(2)).toEqual(['Сотрудник удалён', 'Smith John', '—']);

    expect(auditCalls()).toEqual([{ page: '1', per_page: '50' }]);
    expect(screen.queryByRole('navigation', { name: 'Страницы журнала изменений' })).not.toBeInTheDocument();
  });

  it('filters by action and source on the server, from page 1, and exports what it shows', async () => {
    const many = Array.from({ length: 60 }, (_, i) => entry(100 - i, { subject_name: `Сотрудник ${i}` }));
    const { ue, auditCalls } = setup(auditAnswer([...many, ...ENTRIES]));
    await waitFor(() => expect(rows()).toHaveLength(50));
    const pages = screen.getByRole('navigation', { name: 'Страницы журнала изменений' });
    await ue.click(within(pages).getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(rows()).toHaveLength(14));

    await choose(ue, 'Действие', 'Курс назначен');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Отдел «Продажи»');
    expect(auditCalls().at(-1)).toEqual({ page: '1', per_page: '50', action: 'course_assigned' });

    await choose(ue, 'Источник', 'Вручную');
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();
    expect(auditCalls().at(-1)).toEqual({ page: '1', per_page: '50', action: 'course_assigned', source: 'manual' });

    await ue.click(screen.getByRole('button', { name: 'Экспорт в Excel' }));
    const link = await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' });
    expect(link).toHaveAttribute('download');
    const [path, query] = (link.getAttribute('href') ?? '').split('?');
    expect(path).toBe('/api/admin/audit/export');
    const params = Object.fromEntries(new URLSearchParams(query));
    expect(params).toEqual({
      format: 'xlsx',
      action: 'course_assigned',
      source: 'manual',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(screen.getByRole('menuitem', { name: 'CSV' }).getAttribute('href')).toContain('format=csv');
    await ue.keyboard('{Escape}');

    // Back to every action: the entries of that source again.
    await choose(ue, 'Действие', 'Все действия');
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(auditCalls().at(-1)).toEqual({ page: '1', per_page: '50', source: 'manual' });
  });

  it('searches by the name of whom it concerns or who changed it, 300 ms after the last key', async () => {
    expect(AUDIT_SEARCH_DEBOUNCE_MS).toBe(SEARCH_DEBOUNCE_MS);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { auditCalls } = setup();
      await waitFor(() => expect(rows()).toHaveLength(4));
      const search = screen.getByRole('searchbox', { name: 'Сотрудник или кто изменил' });
      fireEvent.change(search, { target: { value: '  орлова ' } });
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(auditCalls()).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(150));
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(auditCalls()).toEqual([
        { page: '1', per_page: '50' },
        { page: '1', per_page: '50', search: 'орлова' },
      ]);
      expect(rows()[0]).toHaveTextContent('Орлова Вера');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says "Изменений пока нет" when nothing was changed', async () => {
    setup(auditAnswer([]));
    expect(await screen.findByText('Изменений пока нет')).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
  });

  it('stacks each entry in one cell on a phone', async () => {
    window.matchMedia = vi.fn().mockImplementation((query: string) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 47.99em)',
    }));
    setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const table = screen.getByRole('table', { name: 'Журнал изменений' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Изменение']);
    const [updated, assigned] = rows() as [HTMLElement, HTMLElement];
    expect(within(updated).getAllByRole('cell')).toHaveLength(1);
    expect(within(updated).getByText('Сотрудник изменён')).toBeInTheDocument();
    expect(within(updated).getByText('Продажи → Склад').textContent).toBe('Отдел: Продажи → Склад');
    expect(within(updated).getByText('Петрова Мария · Вручную')).toBeInTheDocument();
    expect(await within(updated).findByText('16.01.2026, 10:30')).toBeInTheDocument();
    expect(within(assigned).getByText('Синхронизация по расписанию · Синхронизация с каталогом')).toBeInTheDocument();
  });

  it('shows "Доступ запрещен" to a learner and asks nothing', async () => {
    const { auditCalls } = setup(auditAnswer(ENTRIES), learnerUser);
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(auditCalls()).toHaveLength(0);
  });
});
