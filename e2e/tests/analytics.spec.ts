import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN } from '../server.js';
import { baseUrl, seriousViolations, signIn } from './helpers.js';

/**
 * Analytics (docs/product.md §Analytics; docs/rules.md §Analytics): the demo manager filters, searches, switches
 * to the list, opens an employee and a course detail and goes back; a learner is refused.
 */

const MANAGER = `manager@${LOGIN_DOMAIN}`;
const LEARNER = `learner@${LOGIN_DOMAIN}`;
const SHOTS = '/tmp/shots';

interface Employee {
  id: number;
  name: string;
  course: { id: number; name: string } | null;
}
type Groups = Record<'overdue' | 'almost_overdue' | 'in_order', Employee[]>;

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** The overview as the server sends it to the signed-in user (the page's own cookies). */
async function overview(page: Page): Promise<Groups> {
  const response = await page.request.get(`${baseUrl()}/api/analytics/users`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { result: { analytic: Groups } };
  return body.result.analytic;
}

const count = (page: Page) => page.getByTestId('employees-count');
const cards = (page: Page) => page.getByTestId('employee-card');

test('the manager filters, searches, uses the list and opens an employee and a course', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, MANAGER, DEMO_PASSWORD);
  await page.getByRole('link', { name: 'Аналитика' }).first().click();
  await expect(page).toHaveURL(`${baseUrl()}/analytics`);
  await expect(page.getByRole('heading', { name: 'Аналитика', level: 1 })).toBeVisible();

  const groups = await overview(page);
  const all = [...groups.overdue, ...groups.almost_overdue, ...groups.in_order];
  expect(all.length).toBeGreaterThan(1);
  await expect(count(page)).toHaveText(String(all.length));
  await expect(cards(page)).toHaveCount(all.length);
  await page.screenshot({ path: `${SHOTS}/analytics-grid.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // one filter at a time; clicking the active one clears it
  const filters = [
    ['Просроченный', groups.overdue],
    ['Почти просрочено', groups.almost_overdue],
    ['Все в порядке', groups.in_order],
  ] as const;
  const [label, members] = filters.find(([, list]) => list.length > 0) ?? filters[2];
  const button = page.getByRole('button', { name: label, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(count(page)).toHaveText(String(members.length));
  await expect(cards(page)).toHaveCount(members.length);
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect(cards(page)).toHaveCount(all.length);

  // search: a case-insensitive part of a name
  const target = all[0]!;
  const part = target.name.slice(1, 5).toUpperCase();
  const expected = all.filter((e) => e.name.toLowerCase().includes(part.toLowerCase()));
  const search = page.getByRole('searchbox', { name: 'Поиск по сотрудникам' });
  await search.fill(part);
  await expect(cards(page)).toHaveCount(expected.length);
  await expect(count(page)).toHaveText(String(expected.length));
  await expect(cards(page).first()).toContainText(target.name);
  await search.fill('');
  await expect(cards(page)).toHaveCount(all.length);

  // the list view, with the progress tooltip
  await page.getByRole('button', { name: 'Список', exact: true }).click();
  const rows = page.getByTestId('employee-row');
  await expect(rows).toHaveCount(all.length);
  await expect(cards(page)).toHaveCount(0);
  const withCourse = all.find((e) => e.course !== null);
  expect(withCourse, 'a demo employee with a course').toBeTruthy();
  const row = rows.filter({ hasText: withCourse!.name });
  await row.getByRole('img', { name: /^Прогресс/ }).hover();
  const tip = `Прогресс по курсу: ${withCourse!.course!.name}`;
  await expect(page.getByRole('tooltip', { name: tip })).toHaveText(tip);
  await expect(row).toContainText(/Только что|мин\. назад|ч\. назад|дн\. назад|\d\d\.\d\d\.\d{4}|Никогда/);
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip', { name: tip })).toBeHidden(); // closes 200 ms after the pointer leaves
  await page.screenshot({ path: `${SHOTS}/analytics-list.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // the employee modal
  await row.getByRole('button', { name: withCourse!.name }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Общий прогресс')).toBeVisible();
  await expect(dialog.getByText('Был онлайн:')).toBeVisible();
  await expect(dialog.getByRole('button', { name: `Скопировать ID сотрудника: ${withCourse!.id}` })).toBeVisible();
  const courses = dialog.getByTestId('employee-course');
  await expect(courses.first()).toBeVisible();
  // a course with some progress, when there is one: its items show more than one status
  const started = courses.filter({ hasNotText: /(^|\D)0\/\d+ пройдено заняти[йя]/ });
  const course = (await started.count()) > 0 ? started.first() : courses.first();
  await expect(course).toContainText(/пройдено заняти[йя]/);
  const box = await dialog.boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(1270);
  expect(box?.width ?? 0).toBeGreaterThan(1000);
  await page.screenshot({ path: `${SHOTS}/analytics-modal.png` });
  expect(await seriousViolations(page)).toEqual([]);

  // the course detail slides in; modules open together; 'Назад' returns
  await course.click();
  const panel = dialog.getByTestId('course-detail-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText(/пройдено заняти[йя]/);
  const modules = panel.getByTestId('analytics-module');
  const moduleCount = await modules.count();
  expect(moduleCount).toBeGreaterThan(0);
  for (let i = 0; i < Math.min(moduleCount, 2); i++) await modules.nth(i).getByRole('button').first().click();
  await expect(panel.getByTestId('analytics-item').first()).toBeVisible();
  await expect(panel.getByTestId('analytics-item').first()).toContainText(/^(Тест|Урок):/);
  await page.waitForTimeout(400); // the accordion's animation, for the screenshot
  await page.screenshot({ path: `${SHOTS}/analytics-course.png` });
  expect(await seriousViolations(page)).toEqual([]);
  await panel.getByRole('button', { name: 'Назад' }).click();
  await expect(dialog.getByTestId('employee-courses-panel')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a phone gets a usable layout', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, MANAGER, DEMO_PASSWORD);
  await page.goto(`${baseUrl()}/analytics`);
  await expect(cards(page).first()).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/analytics-phone.png`, fullPage: true });
  await cards(page).first().click();
  await expect(page.getByRole('dialog').getByText('Общий прогресс')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/analytics-phone-modal.png` });
});

test('a learner sees "Доступ запрещен" at /analytics', async ({ page }) => {
  await signIn(page, LEARNER, DEMO_PASSWORD);
  await page.goto(`${baseUrl()}/analytics`);
  await expect(page.getByRole('heading', { name: 'Доступ запрещен' })).toBeVisible();
  await expect(page.getByTestId('employee-card')).toHaveCount(0);
});
