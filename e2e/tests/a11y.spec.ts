import { expect, test } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD } from '../server.js';
import { baseUrl, seriousViolations, signIn } from './helpers.js';

/** docs/product.md §Look and accessibility: axe finds no serious or critical violation on the screens. */

test('the sign-in and recovery screens pass axe', async ({ page }) => {
  await page.goto(`${baseUrl()}/login`);
  await expect(page.getByRole('button', { name: 'Авторизоваться' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`${baseUrl()}/recovery`);
  await expect(page.getByRole('button', { name: 'Отправить письмо' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the learner home passes axe', async ({ page }) => {
  await signIn(page, 'learner@example.com', DEMO_PASSWORD);
  await expect(page.getByText('Продолжить просмотр')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the catalogue and the settings tabs pass axe', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  for (const [path, ready] of [
    ['/management', 'Настроить каталог'],
    ['/settings', 'Настройка школы'],
    ['/settings/departments', 'Настройка школы'],
    ['/settings/groups', 'Настройка школы'],
    ['/settings/audit', 'Настройка школы'],
    ['/settings/import', 'Импорт сотрудников'],
  ] as const) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByText(ready).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect([path, await seriousViolations(page)]).toEqual([path, []]);
  }
});
