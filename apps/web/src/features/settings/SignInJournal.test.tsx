import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { learnerUser } from '../../test/fixtures';
import { networkError, type MockReply } from '../../test/http';
import { CHROME_UA, FIREFOX_UA, signIn, signInsAnswer, signInSetup, SIGN_INS } from './signInTesting';
import { SIGN_INS_SEARCH_DEBOUNCE_MS } from './signIns';
import { ok } from './testing';
import { SEARCH_DEBOUNCE_MS } from './UsersPage';

const setup = signInSetup();
const matchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = matchMedia;
});

const rows = () => screen.queryAllByTestId('sign-in-row');
const texts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

async function choose(ue: ReturnType<typeof setup>['ue'], label: string, option: string) {
  await ue.click(screen.getByRole('combobox', { name: label }));
  await ue.click(await screen.findByRole('option', { name: option }));
}

/** Sixty successful sign-ins and the four of `SIGN_INS`: two pages. */
const MANY = [...Array.from({ length: 60 }, (_, i) => signIn(1000 - i, { name: `Сотрудник ${i}` })), ...SIGN_INS];

describe('Settings, sign-in tab: the journal', { timeout: 20_000 }, () => {
  it('is a tab of the settings before the audit, and shows skeleton rows while the journal loads', async () => {
    let answer: (reply: MockReply) => void = () => {};
    const { journalCalls } = setup({ journal: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    const nav = await screen.findByRole('navigation', { name: 'Разделы настроек' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Сотрудники', 'Отделы', 'Учебные группы', 'Вход', 'Журнал изменений', 'Журнал писем', 'Сертификаты']);
    const tab = within(nav).getByRole('link', { name: 'Вход' });
    expect(tab).toHaveAttribute('href', '/settings/sign-in');
    expect(tab).toHaveAttribute('aria-current', 'page');

    await waitFor(() => expect(screen.getAllByTestId('settings-loading-row').length).toBeGreaterThan(0));
    expect(journalCalls()).toEqual([{ page: '1', per_page: '50' }]);
    answer(signInsAnswer()({ method: 'GET', url: '/api/admin/sign-ins?page=1&per_page=50', body: null, headers: {} }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(screen.queryByTestId('settings-loading-row')).not.toBeInTheDocument();
  });

  it('lists successes and failures: time, person and login, method, result and why, address and browser', async () => {
    setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const table = screen.getByRole('table', { name: 'Журнал входов' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Время', 'Сотрудник', 'Способ', 'Результат', 'IP-адрес и браузер']);
    expect(screen.getByTestId('sign-ins-total')).toHaveTextContent('Всего: 4 попытки входа');

    const [success, wrong, unknown, ldap] = rows() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    // On the company's clock (Moscow in the config): 07:30 UTC is 10:30 there.
    const time = await within(success).findByText('16.01.2026, 10:30');
    expect(time).toHaveAttribute('datetime', '2026-01-16T07:30:00.000Z');
    expect(texts(success).slice(1)).toEqual([
      'Иванов Иванivanov@company.ru',
      'Пароль платформы',
      'Успешно',
      '10.0.0.15Chrome 131 · Windows',
    ]);
    // the whole user agent stays at hand
    expect(within(success).getByText('Chrome 131 · Windows')).toHaveAttribute('title', CHROME_UA);
    expect(within(success).queryByTestId('sign-in-failure')).not.toBeInTheDocument();

    expect(texts(wrong).slice(3)).toEqual(['ОтказНеверный пароль', '2001:db8:85a3::8a2e:370:7334Firefox 133 · Linux']);
    expect(within(wrong).getByText('Firefox 133 · Linux')).toHaveAttribute('title', FIREFOX_UA);

    // a login that named no one: the login alone, dimmed, where the person would be; no browser known
    expect(texts(unknown).slice(1)).toEqual([
      'nobody@company.ru',
      'Пароль платформы',
      'ОтказНет сотрудника с таким логином',
      '10.0.0.15',
    ]);
    // a client that is no browser: its user agent as it is
    expect(texts(ldap).slice(2)).toEqual(['Пароль Active Directory', 'Успешно', '10.0.0.15curl/8.5.0']);
    expect(screen.queryByRole('navigation', { name: 'Страницы журнала входов' })).not.toBeInTheDocument();
  });

  it('filters by method and result on the server, from page 1, and keeps the filters in the address', async () => {
    const { ue, journalCalls, address } = setup({ journal: signInsAnswer(MANY) });
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(screen.getByTestId('sign-ins-total')).toHaveTextContent('Всего: 64 попытки входа');
    const pages = screen.getByRole('navigation', { name: 'Страницы журнала входов' });
    expect(within(pages).getByText('1–50 из 64')).toBeInTheDocument();
    await ue.click(within(pages).getByRole('button', { name: 'Страница 2' }));
    await waitFor(() => expect(rows()).toHaveLength(14));
    expect(journalCalls().at(-1)).toEqual({ page: '2', per_page: '50' });
    expect(address()).toEqual({ page: '2' });
    expect(within(pages).getByText('51–64 из 64')).toBeInTheDocument();

    await choose(ue, 'Результат входа', 'Отказы');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(journalCalls().at(-1)).toEqual({ page: '1', per_page: '50', result: 'failure' });
    expect(address()).toEqual({ result: 'failure' });
    expect(screen.getByTestId('sign-ins-total')).toHaveTextContent('Найдено: 2 попытки входа');

    await choose(ue, 'Способ входа', 'Пароль Active Directory');
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();
    expect(journalCalls().at(-1)).toEqual({ page: '1', per_page: '50', result: 'failure', method: 'ldap' });
    expect(address()).toEqual({ result: 'failure', method: 'ldap' });

    await choose(ue, 'Результат входа', 'Успешные');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Smith John');
    expect(screen.getByTestId('sign-ins-total')).toHaveTextContent('Найдено: 1 попытка входа');

    await choose(ue, 'Способ входа', 'Все способы');
    await choose(ue, 'Результат входа', 'Все');
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(journalCalls().at(-1)).toEqual({ page: '1', per_page: '50' });
    expect(address()).toEqual({});
  });

  it('opens with the filters and the page of its address, and follows the back button', async () => {
    const { journalCalls, router } = setup({
      journal: signInsAnswer(MANY),
      path: '/settings/sign-in?result=success&search=%D0%A1%D0%BE%D1%82%D1%80%D1%83%D0%B4%D0%BD%D0%B8%D0%BA&page=2',
    });
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(journalCalls()).toEqual([{ page: '2', per_page: '50', result: 'success', search: 'Сотрудник' }]);
    expect(screen.getByRole('combobox', { name: 'Результат входа' })).toHaveValue('Успешные');
    expect(screen.getByRole('combobox', { name: 'Способ входа' })).toHaveValue('Все способы');
    expect(screen.getByRole('searchbox', { name: 'Сотрудник или логин' })).toHaveValue('Сотрудник');

    await act(() => router.navigate('/settings/sign-in?method=oidc&page=abc'));
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();
    // a page that is not a number is the first
    expect(journalCalls().at(-1)).toEqual({ page: '1', per_page: '50', method: 'oidc' });
    expect(screen.getByRole('searchbox', { name: 'Сотрудник или логин' })).toHaveValue('');

    // back: the search box shows the search of that address again
    await act(() => router.navigate(-1));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByRole('searchbox', { name: 'Сотрудник или логин' })).toHaveValue('Сотрудник');
    expect(screen.getByRole('combobox', { name: 'Результат входа' })).toHaveValue('Успешные');
  });

  it('goes to the last page there is from a page past the end, in place of it in the history', async () => {
    const { journalCalls, address, router } = setup({ path: '/settings/sign-in?result=failure&page=7' });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(journalCalls()).toEqual([
      { page: '7', per_page: '50', result: 'failure' },
      { page: '1', per_page: '50', result: 'failure' },
    ]);
    expect(address()).toEqual({ result: 'failure' });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('searches by name or login 300 ms after the last key, and puts the search in the address', async () => {
    expect(SIGN_INS_SEARCH_DEBOUNCE_MS).toBe(SEARCH_DEBOUNCE_MS);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { journalCalls, address } = setup();
      await waitFor(() => expect(rows()).toHaveLength(4));
      const search = screen.getByRole('searchbox', { name: 'Сотрудник или логин' });
      fireEvent.change(search, { target: { value: '  NOBODY ' } });
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(journalCalls()).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(150));
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(journalCalls()).toEqual([
        { page: '1', per_page: '50' },
        { page: '1', per_page: '50', search: 'NOBODY' },
      ]);
      expect(address()).toEqual({ search: 'NOBODY' });
      // what was typed stays as typed
      expect(search).toHaveValue('  NOBODY ');
      expect(rows()[0]).toHaveTextContent('nobody@company.ru');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says "Входов пока нет" when no one has signed in', async () => {
    setup({ journal: signInsAnswer([]) });
    expect(await screen.findByText('Входов пока нет')).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
    expect(screen.queryByTestId('sign-ins-total')).not.toBeInTheDocument();
  });

  it('shows the load error in the table with a retry that asks again', async () => {
    let fail = true;
    const answer = signInsAnswer();
    const { ue, journalCalls } = setup({
      journal: (request) => (fail ? { status: 500, data: { result: { success: false } } } : answer(request)),
    });
    const retry = await screen.findByRole('button', { name: 'Повторить' });
    // The inline error and its toast are both alerts.
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Ошибка при загрузке данных'))).toBe(true);
    fail = false;
    await ue.click(retry);
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(journalCalls().length).toBeGreaterThanOrEqual(2);
  });

  it('a page that cannot be loaded shows the error with a retry', async () => {
    const answer = signInsAnswer(MANY);
    const { ue } = setup({
      journal: (request) => (request.url.includes('page=2') ? networkError() : answer(request)),
    });
    await waitFor(() => expect(rows()).toHaveLength(50));
    const pages = screen.getByRole('navigation', { name: 'Страницы журнала входов' });
    await ue.click(within(pages).getByRole('button', { name: 'Страница 2' }));
    expect(await screen.findByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });

  it('stacks each sign-in in one cell on a phone', async () => {
    window.matchMedia = vi.fn().mockImplementation((query: string) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 47.99em)',
    }));
    setup();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const table = screen.getByRole('table', { name: 'Журнал входов' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Вход']);
    const [success, wrong, unknown] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(success).getAllByRole('cell')).toHaveLength(1);
    expect(within(success).getByText('Успешно')).toBeInTheDocument();
    expect(within(success).getByText('Пароль платформы · 10.0.0.15 · Chrome 131 · Windows')).toBeInTheDocument();
    expect(await within(success).findByText('16.01.2026, 10:30')).toBeInTheDocument();
    expect(within(wrong).getByText('Неверный пароль')).toBeInTheDocument();
    expect(within(unknown).getAllByText('nobody@company.ru')).toHaveLength(1);
  });

  it('shows "Доступ запрещен" to a learner and asks nothing', async () => {
    const { journalCalls, requests } = setup({ me: learnerUser });
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(journalCalls()).toHaveLength(0);
    expect(requests.some((r) => r.url === '/api/admin/sign-in-settings')).toBe(false);
  });

  it('shows "Доступ запрещен" when the server refuses the journal', async () => {
    setup({ journal: ok({ result: { success: false, message: 'Доступ запрещен' } }, 403) });
    expect(await screen.findByText('Раздел доступен только администраторам школы.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
