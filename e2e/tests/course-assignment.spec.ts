import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';

/**
 * A course assigned from its own settings ('Назначение', docs/product.md §Course settings): an author
 * gives it to a department and to one employee; the departments tab of the school settings shows it,
 * a learner of that department finds it on the home page; taken back, it is gone again.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const AUTHOR = `author@${LOGIN_DOMAIN}`;
/** Лебедева Ольга, of 'Бухгалтерия' (with Козлова Наталья). */
const ACCOUNTANT = `o.lebedeva@${LOGIN_DOMAIN}`;
const DEPARTMENT = 'Бухгалтерия';
const EMPLOYEE = 'Новиков Сергей';
/** A unique title, so the spec can run more than once against one database. */
const TITLE = `Годовой отчёт ${Date.now().toString(36)}`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

type Created = { result: { item: { id: number } } };

/** A published course of its own, seen only by whom it is assigned to, with one published lesson. */
async function createCourse(page: Page): Promise<number> {
  const courseId = ((await apiCall(page, 'POST', '/api/courses', { name: TITLE })) as Created).result.item.id;
  const moduleId = (
    (await apiCall(page, 'POST', '/api/courses/modules', { name: 'Основы', course_id: courseId })) as Created
  ).result.item.id;
  const lessonId = (
    (await apiCall(page, 'POST', '/api/courses/lessons', { name: 'Сроки сдачи', module_id: moduleId })) as Created
  ).result.item.id;
  await apiCall(page, 'PUT', `/api/courses/${courseId}/lessons/${lessonId}`, {
    name: 'Сроки сдачи',
    is_published: true,
  });
  await apiCall(page, 'POST', `/api/courses/${courseId}/publish`, { is_published: true });
  return courseId;
}

/** Another person's signed-in page, in a browser context of its own. */
async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
  await page.setViewportSize(DESKTOP);
  await signIn(page, email, password);
  return page;
}

/** Until the toasts have gone by themselves (they would cover what a screenshot is for). */
async function closeToasts(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 16_000 });
}

/** Scrolls the window so that `what` begins just under the page header. */
async function showTop(what: Locator) {
  await what.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
}

/** The page as it is once its animations have ended: the section alone, or what the window shows. */
async function shoot(page: Page, name: string, what?: Locator) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))));
  const path = join(SCREENS, name);
  await (what ? what.screenshot({ path }) : page.screenshot({ path }));
}

test('an author assigns a course to a department and an employee from its settings, and takes it back', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, AUTHOR, DEMO_PASSWORD);
  const courseId = await createCourse(page);
  const learner = await signedIn(browser, ACCOUNTANT, DEMO_PASSWORD);
  await expect(learner.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(learner.getByText(TITLE)).toHaveCount(0);

  await page.goto(`/management/constructor/${courseId}/settings`);
  const section = page.getByRole('region', { name: 'Назначение' });
  await expect(section.getByText('Курс пока никому не назначен')).toBeVisible();

  // A department, chosen from the list of all of them.
  const departments = section.getByRole('region', { name: 'Отделы' });
  await departments.getByRole('combobox', { name: 'Добавить отделы' }).click();
  await page.getByRole('option', { name: new RegExp(`^${DEPARTMENT}`) }).click();
  await page.keyboard.press('Escape');
  await departments.getByRole('button', { name: 'Назначить' }).click();
  await expect(toast(page, `Курс назначен отделу «${DEPARTMENT}»`)).toBeVisible();
  await expect(departments.getByRole('listitem')).toHaveText([`${DEPARTMENT} · 2 сотрудника`]);

  // An employee, found on the server by name.
  const users = section.getByRole('region', { name: 'Сотрудники' });
  await users.getByRole('combobox', { name: 'Добавить сотрудников' }).fill('Новиков');
  const option = page.getByRole('option', { name: new RegExp(EMPLOYEE) });
  await expect(option).toContainText('s.novikov@');
  await shoot(page, 'course-assignment-search-1280.png');
  await option.click();
  await page.keyboard.press('Escape');
  await users.getByRole('button', { name: 'Назначить' }).click();
  await expect(toast(page, `Курс назначен сотруднику ${EMPLOYEE}`)).toBeVisible();
  await expect(users.getByRole('listitem')).toHaveCount(1);
  await expect(users.getByRole('listitem')).toContainText(EMPLOYEE);
  await expect(section.getByText('Всего назначено 3 сотрудникам')).toBeVisible();
  expect(await seriousViolations(page, '.mantine-Notifications-root')).toEqual([]);

  await closeToasts(page);
  await shoot(page, 'course-assignment-1280.png', section);
  await page.setViewportSize(PHONE);
  await showTop(section);
  await shoot(page, 'course-assignment-390.png');
  await page.setViewportSize(DESKTOP);

  // The departments tab of the school settings reads the same assignment.
  const admin = await signedIn(browser, ADMIN.email, ADMIN.password);
  await admin.goto('/settings/departments');
  await admin.getByTestId('department-row').filter({ hasText: DEPARTMENT }).click();
  const edit = admin.getByRole('form', { name: 'Редактирование отдела' });
  await expect(edit.getByText(TITLE, { exact: true })).toBeVisible();

  // The learner of that department finds it on the home page.
  await learner.reload();
  await expect(learner.getByText(TITLE).first()).toBeVisible();

  // Taken back: the department after a confirmation, the employee at once.
  await departments.getByRole('button', { name: `Снять назначение: ${DEPARTMENT}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Снять назначение с отдела' });
  await expect(dialog).toContainText('Сотрудники отдела потеряют доступ к курсу, их прогресс сохранится');
  await shoot(page, 'course-assignment-confirm-1280.png');
  await dialog.getByRole('button', { name: 'Снять назначение' }).click();
  await expect(toast(page, `Назначение отделу «${DEPARTMENT}» снято`)).toBeVisible();
  await expect(departments.getByText('Курс не назначен ни одному отделу')).toBeVisible();
  await users.getByRole('button', { name: `Снять назначение: ${EMPLOYEE}` }).click();
  await expect(toast(page, `Назначение сотруднику ${EMPLOYEE} снято`)).toBeVisible();
  await expect(section.getByText('Курс пока никому не назначен')).toBeVisible();

  await learner.reload();
  await expect(learner.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(learner.getByText(TITLE)).toHaveCount(0);
  await admin.goto('/settings/departments');
  await admin.getByTestId('department-row').filter({ hasText: DEPARTMENT }).click();
  await expect(
    admin.getByRole('form', { name: 'Редактирование отдела' }).getByText(TITLE, { exact: true }),
  ).toHaveCount(0);
});
