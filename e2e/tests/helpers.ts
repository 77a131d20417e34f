import { AxeBuilder } from '@axe-core/playwright';
import { expect, request, type BrowserContext, type Page } from '@playwright/test';

/** Base address of the server started by global-setup.ts. */
export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set (global-setup.ts starts the server)');
  return url;
}

/** The part of an address before '@': what the sign-in field takes. */
export const mailbox = (email: string): string => email.slice(0, email.indexOf('@'));

export interface SignInOptions {
  remember?: boolean;
  /** Where the server runs; the shared server by default. */
  url?: string;
}

/** Fills the sign-in form (/login) and submits it; does not wait for the outcome. */
export async function submitSignIn(page: Page, email: string, password: string, opts: SignInOptions = {}) {
  await page.goto(`${opts.url ?? baseUrl()}/login`);
  await page.getByLabel('Почта', { exact: true }).fill(mailbox(email));
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  const remember = page.getByLabel('Запомнить меня');
  await expect(remember).toBeChecked();
  if (opts.remember === false) await remember.uncheck();
  await page.getByRole('button', { name: 'Авторизоваться' }).click();
}

/** Signs in and waits for the main layout at /. */
export async function signIn(page: Page, email: string, password: string, opts: SignInOptions = {}) {
  await submitSignIn(page, email, password, opts);
  await expect(page).toHaveURL(`${opts.url ?? baseUrl()}/`);
  await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();
}

/** A toast (Mantine notification) with the given text. */
export function toast(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

/**
 * Ends the browser context's session on the server, as if it had been signed out elsewhere:
 * POST /api/logout from a separate client that holds a copy of the context's cookies. The
 * browser context keeps its (now dead) cookie.
 */
export async function endSessionOnServer(context: BrowserContext, url: string = baseUrl()): Promise<void> {
  const state = await context.storageState();
  const xsrf = state.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!state.cookies.some((c) => c.name === 'lms_session')) throw new Error('no session cookie');
  const api = await request.newContext({ baseURL: url, storageState: state });
  try {
    const response = await api.post('/api/logout', {
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': decodeURIComponent(xsrf ?? '') },
    });
    expect(response.status(), await response.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/**
 * A call with the session of the page (the CSRF header as the SPA sends it); fails the test on a
 * non-2xx answer. `multipart` sends form fields instead of a JSON body.
 */
export async function apiCall(
  page: Page,
  method: 'POST' | 'GET' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
  multipart?: Record<string, string>,
): Promise<unknown> {
  const cookies = await page.context().cookies();
  const xsrf = decodeURIComponent(cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const headers = { 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': xsrf };
  const response = await page.request.fetch(path, {
    method,
    headers,
    ...(multipart ? { multipart } : data !== undefined ? { data } : {}),
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as unknown;
}

/**
 * docs/product.md §Look and accessibility: axe's serious and critical findings on the page, each with where and why. Colours are
 * judged once the page's finite animations have ended: mid-fade text has the contrast of half its
 * colour. `exclude` leaves out parts axe should not judge (toasts sliding over the header).
 */
export async function seriousViolations(page: Page, exclude?: string): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => a)),
    ),
  );
  const axe = new AxeBuilder({ page });
  const { violations } = await (exclude ? axe.exclude(exclude) : axe).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
    );
}
