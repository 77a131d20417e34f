import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, mailbox, seriousViolations, signIn, submitSignIn, toast } from './helpers.js';

/**
 * Issue 33: the school settings' 'Вход' — an admin finds a colleague's failed sign-in and their own
 * successful one in the journal, narrows it to the failures, and sees that 'Только вход через SSO'
 * cannot be turned on while the server has no single sign-on set up (the default e2e server has
 * neither LDAP_AUTH nor OIDC_*).
 */

test.use({ baseURL: process.env.E2E_BASE_URL });

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
/** A unique employee, so the spec can run more than once against one database. */
const STAMP = Date.now().toString(36);
const LOCAL = `signin-${STAMP}`;
const LAST_NAME = `Входова${STAMP}`;
const NAME = `${LAST_NAME} Вера`;

interface Named {
  id: number;
  name: string;
  code?: string;
}

/** The employee whose password is mistyped: a learner in the first department, made by the admin. */
async function createEmployee(page: Page): Promise<void> {
  const roles = (await apiCall(page, 'GET', '/api/admin/roles')) as { result: { items: Named[] } };
  const departments = (await apiCall(page, 'GET', '/api/admin/departments')) as { result: { items: Named[] } };
  const learnerRole = roles.result.items.find((r) => r.code === 'learner');
  const department = departments.result.items[0];
  if (!learnerRole || !department) throw new Error('the demo company has no learner role or department');
  await apiCall(page, 'POST', '/api/admin/users', {
    first_name: 'Вера',
    last_name: LAST_NAME,
    login: `${LOCAL}@${LOGIN_DOMAIN}`,
    password: '',
    department_id: department.id,
    role_id: learnerRole.id,
    course_ids: [],
    position: null,
  });
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an admin finds a failed and a successful sign-in in the journal, filters the failures, and cannot turn on SSO only', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN.email, ADMIN.password);
  const admin = ((await apiCall(page, 'GET', '/api/check-auth')) as { name: string }).name;
  await createEmployee(page);

  // ── someone mistypes the employee's password on the sign-in page, in another browser ──
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await submitSignIn(otherPage, `${LOCAL}@${LOGIN_DOMAIN}`, 'not-her-password-2026');
    await expect(toast(otherPage, 'Неверный логин или пароль')).toBeVisible();
  } finally {
    await other.close();
  }

  // ── Настройка школы → Вход ──
  await page.goto('/settings');
  const nav = page.getByRole('navigation', { name: 'Разделы настроек' });
  await nav.getByRole('link', { name: 'Вход', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/sign-in$/);
  await expect(nav.getByRole('link', { name: 'Вход', exact: true })).toHaveAttribute('aria-current', 'page');

  const table = page.getByRole('table', { name: 'Журнал входов' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Время',
    'Сотрудник',
    'Способ',
    'Результат',
    'IP-адрес и браузер',
  ]);
  const rows = table.getByTestId('sign-in-row');

  // the newest entry: the mistyped password, under the employee's name
  const failed = rows.first();
  await expect(failed.getByRole('cell').nth(1)).toContainText(NAME);
  await expect(failed.getByRole('cell').nth(1)).toContainText(LOCAL);
  await expect(failed.getByRole('cell').nth(2)).toHaveText('Пароль платформы');
  await expect(failed.getByRole('cell').nth(3)).toHaveText('ОтказНеверный пароль');
  await expect(failed.locator('time')).toHaveText(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
  // the browser in a few words, the whole user agent in its title
  await expect(failed.getByRole('cell').nth(4)).toContainText(/Chrome \d+/);
  await expect(failed.getByTitle(/Mozilla\/5\.0/)).toBeVisible();

  // before it: the admin's own sign-in, a success
  const own = rows.filter({ hasText: admin }).filter({ hasText: 'Успешно' }).first();
  await expect(own).toBeVisible();
  await expect(own.getByRole('cell').nth(1)).toContainText(mailbox(ADMIN.email));
  await expect(own.getByRole('cell').nth(2)).toHaveText('Пароль платформы');
  await expect(own.getByRole('cell').nth(3)).toHaveText('Успешно');
  await expect(page.getByTestId('sign-ins-total')).toHaveText(/^Всего: \d+ попыт(ка|ки|ок) входа$/);
  await page.screenshot({ path: join(SCREENS, 'sign-in-desktop.png'), fullPage: true });
  // with entries shown: the badges' colours too
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);

  // ── the failures only: the admin's success is gone, the mistyped password stays ──
  await choose(page, 'Результат входа', 'Отказы');
  await expect(page).toHaveURL(/[?&]result=failure(&|$)/);
  await expect(rows.filter({ hasText: 'Успешно' })).toHaveCount(0);
  await expect(rows.first()).toContainText('Неверный пароль');
  await page.getByRole('searchbox', { name: 'Сотрудник или логин' }).fill(LAST_NAME);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(NAME);
  await expect(page).toHaveURL(new RegExp(`[?&]search=${encodeURIComponent(LAST_NAME)}(&|$)`));
  await expect(page.getByTestId('sign-ins-total')).toHaveText('Найдено: 1 попытка входа');

  // a reload keeps the filters (they are in the address)
  await page.reload();
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: 'Результат входа' })).toHaveValue('Отказы');
  await expect(page.getByRole('searchbox', { name: 'Сотрудник или логин' })).toHaveValue(LAST_NAME);

  // ── no single sign-on on this server: the switch stays off and says why ──
  const methods = page.getByRole('region', { name: 'Способы входа' });
  await expect(methods.getByTestId('sign-in-method')).toHaveText([
    /^Пароль платформыНастроен/,
    /^Пароль Active DirectoryНе настроен/,
    /^Корпоративный аккаунт \(OpenID Connect\)Не настроен/,
  ]);
  const ssoOnly = methods.getByRole('switch', { name: /^Только вход через SSO/ });
  await expect(ssoOnly).toBeDisabled();
  await expect(ssoOnly).not.toBeChecked();
  await expect(methods).toContainText(
    'Сначала настройте вход через Active Directory (LDAP_AUTH) или корпоративный аккаунт (OIDC_*)',
  );

  // A phone opens the journal: one stacked cell a row, the open tab scrolled into view.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(rows.first()).toContainText('Неверный пароль');
  await expect(nav.getByRole('link', { name: 'Вход', exact: true })).toBeInViewport();
  await expect(table.getByRole('columnheader')).toHaveText(['Вход']);
  await page.screenshot({ path: join(SCREENS, 'sign-in-phone.png'), fullPage: true });
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
});
