import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page, type Request } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, ROOT } from '../server.js';
import { baseUrl, endSessionOnServer, mailbox, signIn, submitSignIn, toast } from './helpers.js';

/** Issue 2: sign-in, session cookie, 401 handling, logout and the menu of each role. */

const LEARNER = 'learner@example.com';
const MANAGER = 'manager@example.com';
const AUTHOR = 'author@example.com';
const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const DAY_S = 24 * 60 * 60;

test.use({ baseURL: process.env.E2E_BASE_URL });

test.beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

async function sessionCookie(page: Page) {
  const cookies = await page.context().cookies();
  const cookie = cookies.find((c) => c.name === 'lms_session');
  expect(cookie, 'lms_session cookie').toBeDefined();
  return cookie!;
}

async function menuNames(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Главное меню' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return nav.getByRole('link').allInnerTexts();
}

test.describe('sign-in', () => {
  test('without "remember me" the session cookie lasts for the browser session only', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'ООО «Тест»' })).toBeVisible();
    await expect(page.getByText('@example.com')).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'sign-in.png'), fullPage: true });

    await signIn(page, LEARNER, DEMO_PASSWORD, { remember: false });
    await expect(toast(page, 'Вы успешно авторизованы')).toBeVisible();
    const cookie = await sessionCookie(page);
    expect(cookie.expires).toBe(-1);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');

    await expect(page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link').first()).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'main-layout.png'), fullPage: true });
  });

  test('with "remember me" the session cookie lasts 30 days', async ({ page }) => {
    await signIn(page, MANAGER, DEMO_PASSWORD);
    const cookie = await sessionCookie(page);
    const expected = Date.now() / 1000 + 30 * DAY_S;
    expect(Math.abs(cookie.expires - expected)).toBeLessThan(120);
  });

  test('a wrong password shows "Неверный логин или пароль" and stays on /login', async ({ page }) => {
    await submitSignIn(page, AUTHOR, 'wrong-password');
    await expect(toast(page, 'Неверный логин или пароль')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.context().cookies()).some((c) => c.name === 'lms_session')).toBe(false);
  });

  test('too short input shows "Заполните почту и пароль" and sends nothing', async ({ page }) => {
    let loginPosts = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/login') loginPosts++;
    });
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Авторизоваться' });

    await page.getByLabel('Почта', { exact: true }).fill('l');
    await page.getByLabel('Пароль', { exact: true }).fill(DEMO_PASSWORD);
    await submit.click();
    await expect(toast(page, 'Заполните почту и пароль')).toBeVisible();

    await page.getByLabel('Почта', { exact: true }).fill(mailbox(LEARNER));
    await page.getByLabel('Пароль', { exact: true }).fill('x');
    await submit.click();
    await expect(toast(page, 'Заполните почту и пароль')).toBeVisible();

    await page.waitForTimeout(300);
    expect(loginPosts).toBe(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an authenticated user who opens /login is sent to /', async ({ page }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await page.goto('/login');
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
  });
});

test.describe('session end', () => {
  test('a session ended on the server: the next API call answers 401 and the browser lands on /login', async ({
    page,
  }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);

    // While a protected page loads, the session is ended elsewhere right before the app's menu call.
    // Only the answer to the intercepted call counts: the home page's own menu call may still be in flight.
    let ended: Request | undefined;
    await page.route('**/api/menu', async (route) => {
      if (!ended) {
        ended = route.request();
        await endSessionOnServer(page.context());
      }
      await route.continue();
    });
    const menuAnswer = page.waitForResponse((r) => ended !== undefined && r.request() === ended);
    await page.goto('/profile');
    expect((await menuAnswer).status()).toBe(401);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Авторизоваться' })).toBeVisible();
    await page.unroute('**/api/menu');

    // The dead cookie opens nothing.
    await page.goto('/analytics');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signed out in another place: API calls answer 401, a reload shows /login', async ({ page }) => {
    await signIn(page, MANAGER, DEMO_PASSWORD);
    await page.goto('/analytics');
    await expect(page.getByRole('link', { name: 'Аналитика' })).toHaveAttribute('aria-current', 'page');
    await endSessionOnServer(page.context());
    expect((await page.context().cookies()).some((c) => c.name === 'lms_session')).toBe(true);
    expect((await page.request.get('/api/menu')).status()).toBe(401);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a cleared session cookie: a reload shows /login', async ({ page }) => {
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    await page.goto('/profile');
    await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
    await page.context().clearCookies({ name: 'lms_session' });
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('"Выйти из аккаунта" in the avatar menu signs out; protected pages then lead to /login', async ({ page }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Меню пользователя' }).click();
    await expect(page.getByTestId('user-full-name')).not.toBeEmpty();
    await expect(page.getByTestId('user-role')).toHaveText('Ученик');
    await page.getByRole('menuitem', { name: 'Выйти из аккаунта' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Авторизоваться' })).toBeVisible();
    expect(await (await page.request.get('/api/check-auth')).json()).toMatchObject({ authenticated: false });

    // (the address / itself is checked in 'full-page loads' below)
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Авторизоваться' })).toBeVisible();
  });
});

test.describe('full-page loads', () => {
  test('the address / serves the app (signed out: /login; signed in: home)', async ({ page }) => {
    // After signing out, / leads to /login (docs/product.md §Session).
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Меню пользователя' }).click();
    await page.getByRole('menuitem', { name: 'Выйти из аккаунта' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const guest = await page.goto('/');
    expect(guest?.status(), 'GET / must serve index.html').toBe(200);
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await page.reload();
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
  });
});

test.describe('menu by role', () => {
  const cases: { who: string; email: string; password: string; items: string[] }[] = [
    { who: 'learner', email: LEARNER, password: DEMO_PASSWORD, items: ['Главная', 'Мой профиль'] },
    { who: 'manager', email: MANAGER, password: DEMO_PASSWORD, items: ['Главная', 'Аналитика', 'Мой профиль'] },
    { who: 'author', email: AUTHOR, password: DEMO_PASSWORD, items: ['Главная', 'Управление курсами', 'Мой профиль'] },
    {
      who: 'admin',
      email: ADMIN.email,
      password: ADMIN.password,
      items: ['Главная', 'Аналитика', 'Управление курсами', 'Настройка школы', 'Мой профиль'],
    },
  ];

  for (const c of cases) {
    test(`${c.who} sees ${c.items.join(', ')}`, async ({ page }) => {
      await signIn(page, c.email, c.password);
      expect(await menuNames(page)).toEqual(c.items);
    });
  }
});
