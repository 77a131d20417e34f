import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startOidcProvider, type TestProvider } from '../../apps/api/src/test/oidcProvider.js';
import { freePort, ROOT, startServer, type RunningServer } from '../server.js';
import { seriousViolations } from './helpers.js';

/**
 * Issue 33: an employee signs in with one button through the company's OpenID Connect provider — a
 * real one (`oidc-provider`, run in this process as in the API's tests) — typing their login into the
 * provider's own form, lands on their home page signed in, and signs out of both.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const BUTTON = 'Войти через корпоративный аккаунт';

test.describe('sign-in through the company provider', () => {
  let provider: TestProvider;
  let server: RunningServer;

  test.beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    // The provider must know the app's callback, so the app's port is chosen first.
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider({
      redirectUri: `${site}/api/auth/oidc/callback`,
      postLogoutRedirectUri: `${site}/login`,
      accounts: [
        {
          sub: 'a.smirnov',
          email: 'learner@example.com',
          email_verified: true,
          given_name: 'Алексей',
          family_name: 'Смирнов',
        },
        {
          sub: 'stranger',
          email: 'stranger@example.com',
          email_verified: true,
          given_name: 'Пётр',
          family_name: 'Чужой',
        },
      ],
    });
    server = await startServer({ ...provider.env, PORT: String(port) });
  });
  test.afterAll(async () => {
    server?.process.kill();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
    await provider?.stop();
  });

  /** A browser that reaches nothing but this machine (the provider's pages would load a web font). */
  async function localContext(browser: Browser): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    await context.route(
      (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
      (route) => route.abort(),
    );
    return context;
  }

  /** The provider's own pages: its login form as `login` (any password), then its consent when asked. */
  async function atProvider(page: Page, login: string) {
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const consent = page.getByRole('button', { name: 'Continue' });
    if (await consent.isVisible({ timeout: 3_000 }).catch(() => false)) await consent.click();
  }

  test('one button, the provider’s form, the home page; logout signs out at the provider too', async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await localContext(browser);
    const page = await context.newPage();

    await page.goto('/login');
    const button = page.getByRole('link', { name: BUTTON });
    await expect(button).toBeVisible();
    await expect(page.getByRole('button', { name: 'Авторизоваться' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENS, 'oidc-login-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENS, 'oidc-login-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await button.click();
    await atProvider(page, 'a.smirnov');
    await expect(page).toHaveURL(`${server.url}/`);
    await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
    expect(await (await page.request.get('/api/check-auth')).json()).toMatchObject({
      authenticated: true,
      email: 'learner@example.com',
    });

    // Logout ends the session here and at the provider, which asks to confirm and sends the browser back.
    await page.getByRole('button', { name: 'Меню пользователя' }).click();
    await page.getByRole('menuitem', { name: 'Выйти из аккаунта' }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/session/end`));
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(page).toHaveURL(`${server.url}/login`);
    expect(await (await page.request.get('/api/check-auth')).json()).toMatchObject({ authenticated: false });

    // A protected page opened signed out: after the provider (which asks for the login again, its
    // session ended) the browser comes back to that page.
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('link', { name: BUTTON }).click();
    await atProvider(page, 'a.smirnov');
    await expect(page).toHaveURL(`${server.url}/profile`);
    await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
    await context.close();
  });

  test('a refusal comes back to the sign-in page with its Russian message', async ({ browser }) => {
    const context = await localContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: BUTTON }).click();
    // Someone the provider knows and the company's platform does not (OIDC_CREATE_USERS is off).
    await atProvider(page, 'stranger');
    await expect(page).toHaveURL(/\/login\?sso_error=unknown_user$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Сотрудник с такой почтой не найден на платформе. Обратитесь к администратору.',
    );
    expect(await (await page.request.get('/api/check-auth')).json()).toMatchObject({ authenticated: false });

    await page.goto('/api/auth/oidc/start?return=%2F%2Fevil.example');
    await expect(page).toHaveURL(/\/login\?sso_error=bad_return$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Некорректный адрес возврата после входа. Откройте страницу входа заново.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENS, 'oidc-login-error-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENS, 'oidc-login-error-phone.png'), fullPage: true });
    await context.close();
  });
});
