import type { AuthUser } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browser } from '../lib/browser';
import { guestUser } from '../shared/session';
import { learnerUser, menuItems } from '../test/fixtures';
import { mockHttp, testConfig, testZiggy, type MockReply, type RecordedRequest } from '../test/http';
import { preloadRoutes, renderRoutes, resetToasts } from '../test/render';
import { setupUser } from '../test/user';
import { routes } from './router';

/** Issue 30 item 13: a password an administrator mailed is replaced by the user's own before anything else. */
const mailed: AuthUser = { ...learnerUser, must_change_password: true };
const TITLE = 'Придумайте свой пароль';

let restore: () => void = () => {};
let navigate: MockInstance<typeof browser.navigate>;

beforeAll(() => preloadRoutes(routes), 30_000);
beforeEach(() => {
  navigate = vi.spyOn(browser, 'navigate').mockImplementation(() => {});
  vi.spyOn(browser, 'reload').mockImplementation(() => {});
});
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

function setup(path: string, opts: { user?: AuthUser; setPassword?: (r: RecordedRequest) => MockReply } = {}) {
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: testConfig },
    'GET /ziggy': { status: 200, data: testZiggy },
    'GET /api/check-auth': { status: 200, data: opts.user ?? mailed },
    'GET /api/menu': { status: 200, data: { items: menuItems } },
    'GET /api/user/courses': { status: 200, data: { result: { success: true }, categories: [] } },
    'GET /api/user/started-lessons': { status: 200, data: { result: { success: true }, items: [] } },
    'GET /storage/json/social.links.json': { status: 200, data: [] },
    'POST /api/logout': { status: 200, data: { result: { success: true } } },
    'POST /api/profile/set-password':
      opts.setPassword ??
      (() => ({ status: 200, data: { result: { success: true, message: 'Пароль успешно изменён' } } })),
  });
  restore = mock.restore;
  const view = renderRoutes(routes, path);
  return { ...view, requests: mock.requests, ue: setupUser() };
}

const form = async () => within(await screen.findByRole('form', { name: TITLE }));

describe('own password after a mailed one', () => {
  it('stands instead of any protected page, without the menu or the page calls; the address stays', async () => {
    const { router, requests } = setup('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    expect(screen.getByText(mailed.email)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Меню пользователя' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Главное меню' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
    expect(requests.map((r) => r.url)).not.toContain('/api/menu');
    expect(requests.map((r) => r.url)).not.toContain('/api/profile');
  });

  it('marks every empty field at once, then checks the rules of the profile before sending', async () => {
    const { ue, requests } = setup('/');
    const f = await form();
    await ue.click(f.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Заполните все поля пароля')).toBeInTheDocument();
    expect(f.getByLabelText('Новый пароль')).toHaveAttribute('aria-invalid', 'true');
    expect(f.getByLabelText('Подтверждение пароля')).toHaveAttribute('aria-invalid', 'true');

    await ue.type(f.getByLabelText('Новый пароль'), 'Пароль-1');
    await ue.type(f.getByLabelText('Подтверждение пароля'), 'Пароль-2');
    await ue.click(f.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Подтверждение пароля не совпадает')).toBeInTheDocument();
    expect(f.getByLabelText('Новый пароль')).not.toHaveAttribute('aria-invalid');

    await ue.clear(f.getByLabelText('Новый пароль'));
    await ue.type(f.getByLabelText('Новый пароль'), 'Пар-1');
    await ue.clear(f.getByLabelText('Подтверждение пароля'));
    await ue.type(f.getByLabelText('Подтверждение пароля'), 'Пар-1');
    await ue.click(f.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Новый пароль должен содержать не менее 8 символов')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('shows the server’s message when it refuses', async () => {
    const { ue } = setup('/', {
      setPassword: () => ({
        status: 422,
        data: { result: { success: false, message: 'Новый пароль должен отличаться от старого' } },
      }),
    });
    const f = await form();
    await ue.type(f.getByLabelText('Новый пароль'), 'Пароль-из-письма');
    await ue.type(f.getByLabelText('Подтверждение пароля'), 'Пароль-из-письма');
    await ue.click(f.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Новый пароль должен отличаться от старого')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
  });

  it('a saved password opens the page the user was going to', async () => {
    const { ue, requests } = setup('/');
    const f = await form();
    await ue.type(f.getByLabelText('Новый пароль'), 'Свой-пароль-2026');
    await ue.type(f.getByLabelText('Подтверждение пароля'), 'Свой-пароль-2026');
    await ue.click(f.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Алексей, добрый день!' })).toBeInTheDocument();
    expect(screen.getByText('Пароль успешно изменён')).toBeInTheDocument();
    expect(requests.find((r) => r.url === '/api/profile/set-password')?.body).toEqual({
      new_password: 'Свой-пароль-2026',
      new_password_confirmation: 'Свой-пароль-2026',
    });
    expect(screen.getByRole('button', { name: 'Меню пользователя' })).toBeInTheDocument();
  });

  it('signs out from the screen', async () => {
    const { ue, requests } = setup('/');
    await ue.click(await screen.findByRole('button', { name: 'Выйти из аккаунта' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/logout']);
  });

  it('follows a sign-in with a mailed password', async () => {
    const { ue } = setup('/login', { user: guestUser });
    const mock = mockHttp({
      'GET /api/config': { status: 200, data: testConfig },
      'GET /ziggy': { status: 200, data: testZiggy },
      'POST /login': { status: 200, data: { result: { success: true, message: 'ok' }, user: mailed } },
    });
    restore = mock.restore;
    await ue.type(await screen.findByLabelText('Почта'), 'learner');
    await ue.type(screen.getByLabelText('Пароль'), 'из-письма');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
  });
});
