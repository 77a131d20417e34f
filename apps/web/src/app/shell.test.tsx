import type { AuthUser } from '@lms/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browser } from '../lib/browser';
import { guestUser } from '../shared/session';
import { adminUser, menuItems } from '../test/fixtures';
import { mockHttp, testConfig, testZiggy, type MockReply } from '../test/http';
import { preloadRoutes, renderRoutes, resetToasts } from '../test/render';
import { routes } from './router';
import { setupUser } from '../test/user';

const guest = guestUser;

const socialLinks = [
  { id: 1, name: 'Telegram', link: 'https://t.me/company', icon: 'telegram' },
  { id: 2, name: 'ВКонтакте', link: 'https://vk.com/company', icon: 'vk' },
  { id: 3, name: 'Плохая', link: 'javascript:alert(1)', icon: 'youtube' },
];

let restore: () => void = () => {};
let navigate: MockInstance<typeof browser.navigate>;
let reload: MockInstance<typeof browser.reload>;

// Every screen's module is loaded once before the tests, not by the first test that opens it (the
// loading is set-up, not what is tested, so it gets the time a cold module graph needs on a busy machine).
beforeAll(() => preloadRoutes(routes), 30_000);

beforeEach(() => {
  navigate = vi.spyOn(browser, 'navigate').mockImplementation(() => {});
  reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
});
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

function setup(
  path: string,
  opts: { user?: AuthUser | MockReply; logout?: MockReply; config?: typeof testConfig } = {},
) {
  const user = opts.user ?? adminUser;
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: opts.config ?? testConfig },
    'GET /ziggy': { status: 200, data: testZiggy },
    'GET /api/check-auth': 'status' in user ? user : { status: 200, data: user },
    'GET /api/menu': { status: 200, data: { items: menuItems } },
    'GET /storage/json/social.links.json': { status: 200, data: socialLinks },
    'POST /api/logout': opts.logout ?? { status: 200, data: { result: { success: true } } },
  });
  restore = mock.restore;
  const view = renderRoutes(routes, path);
  return { ...view, requests: mock.requests, ue: setupUser() };
}

describe('main layout and route guards', () => {
  it('shows the shell for a signed-in user: menu, header, screen content, footer', async () => {
    setup('/analytics');
    expect(await screen.findByRole('heading', { name: 'Аналитика', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Аналитика' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Меню пользователя' })).toHaveTextContent('МП');
    expect(screen.getByRole('link', { name: 'Политика конфиденциальности' })).toHaveAttribute('href', '#');
    expect(screen.getByRole('link', { name: 'Лицензионное соглашение' })).toHaveAttribute('href', '#');
    expect(screen.getByText(`© ${new Date().getFullYear()} ООО «Ромашка»`)).toBeInTheDocument();
  });

  it('opens social links in a new tab and drops unsafe ones', async () => {
    setup('/');
    const telegram = await screen.findByRole('link', { name: 'Telegram' });
    expect(telegram).toHaveAttribute('href', 'https://t.me/company');
    expect(telegram).toHaveAttribute('target', '_blank');
    expect(telegram).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'ВКонтакте' })).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('link', { name: 'Плохая' })).not.toBeInTheDocument();
  });

  it('logout: POST /api/logout, then a full-page navigation to /login', async () => {
    const { ue, requests } = setup('/');
    await ue.click(await screen.findByRole('button', { name: 'Меню пользователя' }));
    await ue.click(await screen.findByRole('menuitem', { name: 'Выйти из аккаунта' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'));
    const logout = requests.filter((r) => r.method === 'POST');
    expect(logout).toHaveLength(1);
    expect(logout[0]?.url).toBe('/api/logout');
    expect(reload).not.toHaveBeenCalled();
  });

  it('logout of a session opened at the company provider goes on to its logout address', async () => {
    const end = 'https://sso.company.ru/logout?id_token_hint=x&post_logout_redirect_uri=https%3A%2F%2Flms%2Flogin';
    const { ue } = setup('/', { logout: { status: 200, data: { result: { success: true }, redirect: end } } });
    await ue.click(await screen.findByRole('button', { name: 'Меню пользователя' }));
    await ue.click(await screen.findByRole('menuitem', { name: 'Выйти из аккаунта' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(end));
  });

  it('a logout answer naming something other than a web address is not followed', async () => {
    const { ue } = setup('/', {
      logout: { status: 200, data: { result: { success: true }, redirect: 'javascript:alert(1)' } },
    });
    await ue.click(await screen.findByRole('button', { name: 'Меню пользователя' }));
    await ue.click(await screen.findByRole('menuitem', { name: 'Выйти из аккаунта' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'));
  });

  it('a guest sent from a protected page to /login: the corporate sign-in comes back to that page', async () => {
    const { ue } = setup('/settings/groups?page=2', {
      user: guest,
      config: { ...testConfig, oidc_label: 'Войти через Keycloak' },
    });
    const corporate = await screen.findByRole('link', { name: 'Войти через Keycloak' });
    expect(corporate).toHaveAttribute('href', '/api/auth/oidc/start?return=%2Fsettings%2Fgroups%3Fpage%3D2&remember=1');
    await ue.click(screen.getByLabelText('Запомнить меня'));
    expect(corporate).toHaveAttribute('href', '/api/auth/oidc/start?return=%2Fsettings%2Fgroups%3Fpage%3D2');
  });

  it('logout failure reloads the page', async () => {
    const { ue } = setup('/', { logout: { status: 500 } });
    await ue.click(await screen.findByRole('button', { name: 'Меню пользователя' }));
    await ue.click(await screen.findByRole('menuitem', { name: 'Выйти из аккаунта' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('sends a guest from a protected page to /login', async () => {
    const { router } = setup('/settings/groups', { user: guest });
    expect(await screen.findByRole('button', { name: 'Авторизоваться' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('counts a failed session check as not authenticated', async () => {
    const { router } = setup('/', { user: { status: 500 } });
    expect(await screen.findByRole('button', { name: 'Авторизоваться' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a signed-in user from /login to /', async () => {
    const { router } = setup('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Мария, добрый день!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps the recovery pages public', async () => {
    setup('/recovery', { user: guest });
    expect(await screen.findByRole('heading', { name: 'Восстановление пароля' })).toBeInTheDocument();
  });

  it('shows "Страница не найдена" with a link home on an unknown path', async () => {
    setup('/no/such/page', { user: guest });
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
  });

  it('signs in from /login and lands on the home placeholder', async () => {
    const { ue, router } = setup('/login', { user: guest });
    const mock = mockHttp({
      'GET /api/config': { status: 200, data: testConfig },
      'GET /ziggy': { status: 200, data: testZiggy },
      'POST /login': {
        status: 200,
        data: { result: { success: true, message: 'ok' }, user: adminUser },
      },
      'GET /api/menu': { status: 200, data: { items: menuItems } },
      'GET /storage/json/social.links.json': { status: 200, data: [] },
    });
    restore = mock.restore;
    await ue.type(await screen.findByLabelText('Почта'), 'petrova');
    await ue.type(screen.getByLabelText('Пароль'), 'secret');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Мария, добрый день!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText('Вы успешно авторизованы')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Меню пользователя' })).toHaveTextContent('МП');
  });
});
