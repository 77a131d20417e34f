import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { baseUrl, signIn, toast } from './helpers.js';

/** Issue 30 item 15: a missing course said once with a way back, forms that mark every field, toasts aside. */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const LEARNER = `learner@${LOGIN_DOMAIN}`;
const PHONE = { width: 390, height: 844 };

test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

/** Whether two elements' boxes on the screen overlap. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('an element is not on the screen');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', PHONE],
] as const) {
  test(`a missing course says «Курс не найден» once, with the way home (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport })).newPage();
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await page.goto(`${baseUrl()}/courses/999999`);
    await expect(page.getByRole('heading', { level: 1, name: 'Курс не найден' })).toBeVisible();
    await expect(page.getByText('Курс не найден')).toHaveCount(1);
    await expect(page.getByText('курс не загружен')).toHaveCount(0);
    await page.screenshot({ path: join(SCREENS, `course-missing-${name}.png`) });
    await page.getByTestId('missing-notice').getByRole('link', { name: 'На главную' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await page.context().close();
  });

  test(`the add-employee form marks every empty field at once; the toast keeps off its buttons (${name})`, async ({
    browser,
  }) => {
    const page = await (await browser.newContext({ viewport })).newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`${baseUrl()}/settings`);
    await page.getByRole('button', { name: 'Добавить сотрудников' }).click();
    const form = page.getByRole('form', { name: 'Добавление сотрудников' });
    await form.getByRole('button', { name: 'Добавить ещё ученика' }).click();
    const submit = form.getByRole('button', { name: 'Добавить', exact: true });
    await submit.click();
    const message = toast(page, 'Пожалуйста, выберите роль и отдел');
    await expect(message).toBeVisible();
    await expect(form.getByRole('combobox', { name: 'Роль' })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('combobox', { name: 'Отдел' })).toHaveAttribute('aria-invalid', 'true');
    const blocks = form.getByRole('group', { name: /^Ученик #/ });
    for (const i of [0, 1]) {
      for (const field of ['Фамилия', 'Имя', 'Email']) {
        await expect(blocks.nth(i).getByRole('textbox', { name: field })).toHaveAttribute('aria-invalid', 'true');
      }
    }
    await page.waitForTimeout(400); // the toast's entrance
    expect(await overlap(message, submit)).toBe(false);
    expect(await overlap(message, form.getByRole('button', { name: 'Отмена' }))).toBe(false);
    // Nor the dialog's own close button and title.
    const dialog = page.getByRole('dialog', { name: 'Добавление сотрудников' });
    expect(await overlap(message, dialog.getByRole('heading', { name: 'Добавление сотрудников' }))).toBe(false);
    expect(await overlap(message, dialog.locator('.mantine-Modal-close'))).toBe(false);
    await page.screenshot({ path: join(SCREENS, `add-employee-errors-${name}.png`) });
    await page.context().close();
  });
}

async function openConstructor(page: Page) {
  await signIn(page, ADMIN.email, ADMIN.password);
  // The demo company's first course.
  await page.goto(`${baseUrl()}/management/constructor/1`);
  await expect(page.getByRole('switch').first()).toBeVisible();
}

test('a toast keeps off the control it talks about: the course’s publish switch', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await openConstructor(page);
  const publish = page.getByRole('switch').first();
  await publish.click();
  const changed = toast(page, 'Статус курса успешно изменен');
  await expect(changed).toBeVisible();
  await page.waitForTimeout(400);
  expect(await overlap(changed, publish)).toBe(false);
  await page.screenshot({ path: join(SCREENS, 'toast-publish.png') });
  await publish.click(); // back as it was
  await expect(toast(page, 'Статус курса успешно изменен')).toHaveCount(2);
  await page.context().close();
});

test('a toast keeps off the profile’s «Сменить пароль» on a phone', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signIn(page, LEARNER, DEMO_PASSWORD);
  await page.goto(`${baseUrl()}/profile`);
  const submit = page.getByRole('button', { name: 'Сменить пароль' });
  await submit.scrollIntoViewIfNeeded();
  await submit.click();
  const message = toast(page, 'Заполните все поля пароля');
  await expect(message).toBeVisible();
  await page.waitForTimeout(400);
  expect(await overlap(message, submit)).toBe(false);
  for (const field of ['Старый пароль', 'Новый пароль', 'Подтверждение пароля']) {
    const input = page.getByLabel(field, { exact: true });
    if (await input.isVisible()) expect(await overlap(message, input)).toBe(false);
  }
  await page.screenshot({ path: join(SCREENS, 'toast-profile-phone.png') });
  await page.context().close();
});
