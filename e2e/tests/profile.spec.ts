import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN, ROOT, startServer, type RunningServer } from '../server.js';
import { seriousViolations, signIn, submitSignIn, toast } from './helpers.js';

/**
 * Profile (docs/product.md §Profile; docs/rules.md §Profile): a learner sees the read-only card
 * and changes the password. The spec runs its own server, so the demo learner's new password
 * touches no other spec.
 */

const LEARNER = `learner@${LOGIN_DOMAIN}`;
const NEW_PASSWORD = 'Fresh-pass-2026';
const SCREENS = join(ROOT, 'e2e/.tmp/screens');

let server: RunningServer;

test.beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  server = await startServer();
});

test.afterAll(async () => {
  if (!server) return;
  server.process.kill('SIGTERM');
  await new Promise((r) => server.process.once('exit', r).once('error', r));
  rmSync(server.dataDir, { recursive: true, force: true });
});

async function newPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  return context.newPage();
}

/** The value shown under a label of the read-only card. */
function info(page: Page, label: string) {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

test('a learner changes the password, stays signed in, and the old password no longer signs in', async ({
  browser,
}) => {
  test.setTimeout(90_000);

  // Another session of the same learner, which the change ends.
  const other = await newPage(browser);
  await signIn(other, LEARNER, DEMO_PASSWORD, { url: server.url });

  const page = await newPage(browser, { width: 1280, height: 900 });
  await signIn(page, LEARNER, DEMO_PASSWORD, { url: server.url });
  await page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Мой профиль' }).click();
  await expect(page).toHaveURL(`${server.url}/profile`);

  // The read-only card.
  await expect(page.getByRole('heading', { level: 2, name: 'Алексей Смирнов' })).toBeVisible();
  await expect(page.getByTestId('profile-role')).toHaveText('Ученик');
  await expect(info(page, 'Имя Фамилия')).toHaveText('Алексей Смирнов');
  await expect(info(page, 'Отдел')).toHaveText('Отдел продаж');
  await expect(info(page, 'Должность')).toHaveText('Менеджер по продажам');
  await expect(info(page, 'Email')).toHaveText(LEARNER);

  const card = page.getByRole('region', { name: 'Смена пароля' });
  const oldField = card.getByLabel('Старый пароль', { exact: true });
  const newField = card.getByLabel('Новый пароль', { exact: true });
  const confirmField = card.getByLabel('Подтверждение пароля', { exact: true });
  const submit = card.getByRole('button', { name: 'Сменить пароль' });
  await page.screenshot({ path: join(SCREENS, 'profile-1280.png'), fullPage: true });

  // The client checks send nothing.
  let changeCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/profile/change-password')) changeCalls += 1;
  });
  await submit.click();
  await expect(toast(page, 'Заполните все поля пароля')).toBeVisible();
  await oldField.fill(DEMO_PASSWORD);
  await newField.fill(NEW_PASSWORD);
  await confirmField.fill(`${NEW_PASSWORD}x`);
  await submit.click();
  await expect(toast(page, 'Подтверждение пароля не совпадает')).toBeVisible();
  expect(changeCalls).toBe(0);

  // A wrong old password: the server's message, and the fields stay.
  await oldField.fill('Wrong-pass-2026');
  await confirmField.fill(NEW_PASSWORD);
  await submit.click();
  await expect(toast(page, 'Неверный текущий пароль')).toBeVisible();
  await expect(newField).toHaveValue(NEW_PASSWORD);
  expect(changeCalls).toBe(1);

  // The right one: the success toast and the three fields cleared.
  await oldField.fill(DEMO_PASSWORD);
  await submit.click();
  await expect(toast(page, 'Пароль успешно изменён')).toBeVisible();
  for (const field of [oldField, newField, confirmField]) await expect(field).toHaveValue('');
  await page.screenshot({ path: join(SCREENS, 'profile-changed-1280.png'), fullPage: true });

  // This session stays: a reload keeps the learner on the profile.
  await page.reload();
  await expect(page).toHaveURL(`${server.url}/profile`);
  await expect(page.getByRole('heading', { level: 2, name: 'Алексей Смирнов' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();

  // The other session has ended.
  expect((await other.request.get(`${server.url}/api/menu`)).status()).toBe(401);
  await other.reload();
  await expect(other).toHaveURL(`${server.url}/login`);

  // The old password no longer signs in; the new one does.
  const fresh = await newPage(browser);
  await submitSignIn(fresh, LEARNER, DEMO_PASSWORD, { url: server.url });
  await expect(toast(fresh, 'Неверный логин или пароль')).toBeVisible();
  await expect(fresh).toHaveURL(`${server.url}/login`);
  await signIn(fresh, LEARNER, NEW_PASSWORD, { url: server.url });

  for (const p of [other, page, fresh]) await p.context().close();
});

test('the profile fits a phone screen and passes axe', async ({ browser }) => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await signIn(page, `manager@${LOGIN_DOMAIN}`, DEMO_PASSWORD, { url: server.url });
  await page.goto(`${server.url}/profile`);
  await expect(page.getByRole('heading', { level: 2, name: 'Ирина Соколова' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Сменить пароль' });
  await submit.scrollIntoViewIfNeeded();
  await expect(submit).toBeInViewport({ ratio: 1 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(SCREENS, 'profile-390.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.context().close();
});
