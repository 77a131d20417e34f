import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN } from '../server.js';
import { baseUrl, seriousViolations, signIn } from './helpers.js';

/**
 * Analytics for a manager (issue 30): the employee modal shows the covers of the team's courses,
 * those the manager is not enrolled in too, and a status filter with nobody in it says so.
 */

const MANAGER = `manager@${LOGIN_DOMAIN}`;
const SHOTS = '/tmp/shots';
/** The demo's 'Новые сотрудники' group has this enrolled-only course; the sales manager is not in it. */
const GROUP_COURSE = 'Информационная безопасность';
const GROUP_MEMBER = 'Морозова Екатерина';

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function openAnalytics(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await signIn(page, MANAGER, DEMO_PASSWORD);
  await page.goto(`${baseUrl()}/analytics`);
  await expect(page.getByTestId('employee-card').first()).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`the manager sees the covers of the team's courses (${viewport.name})`, async ({ page }) => {
    await openAnalytics(page, viewport);
    await page.getByTestId('employee-card').filter({ hasText: GROUP_MEMBER }).click();
    const dialog = page.getByRole('dialog');
    const courses = dialog.getByTestId('employee-course');
    await expect(courses.filter({ hasText: GROUP_COURSE })).toBeVisible();
    // Every cover is the course's own image, loaded: a refused one would fall back to the placeholder.
    const count = await courses.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) {
      const image = courses.nth(i).locator('img');
      await expect(image).toHaveAttribute('src', /^\/storage\/demo\/cover-/);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      await expect(image).toHaveAttribute('src', /^\/storage\/demo\/cover-/);
    }
    const cover = courses.filter({ hasText: GROUP_COURSE }).locator('img');
    expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(1);
    await page.screenshot({ path: `${SHOTS}/analytics-team-covers-${viewport.name}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });

  test(`a status filter with nobody says so (${viewport.name})`, async ({ page }) => {
    await openAnalytics(page, viewport);
    const response = await page.request.get(`${baseUrl()}/api/analytics/users`);
    const analytic = ((await response.json()) as { result: { analytic: Record<string, unknown[]> } }).result.analytic;
    // In the demo every sales employee is overdue on the safety course or has done it all.
    expect(analytic.almost_overdue).toEqual([]);
    const all = Object.values(analytic).flat().length;

    const toggle = page.getByRole('button', { name: 'Почти просрочено', exact: true });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Нет сотрудников с таким статусом')).toBeVisible();
    await expect(page.getByText('Сотрудников пока нет')).toHaveCount(0);
    await expect(page.getByTestId('employees-count')).toHaveText('0');
    await expect(page.getByTestId('employee-card')).toHaveCount(0);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${SHOTS}/analytics-empty-filter-${viewport.name}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Сбросить фильтр' }).click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('employee-card')).toHaveCount(all);
  });
}
