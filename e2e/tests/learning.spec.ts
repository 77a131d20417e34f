import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CourseSummary, HomeCategory, LearnerModule } from '@lms/contract';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, ROOT } from '../server.js';
import { seriousViolations, signIn, toast } from './helpers.js';

/** Course page, lesson page and contents panel (docs/product.md §Course page) for the demo learner. */

const LEARNER = 'learner@example.com';
const SCREENS = join(ROOT, 'e2e/.tmp/screens');

test.use({ baseURL: process.env.E2E_BASE_URL });

test.beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

async function getJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.ok(), path).toBe(true);
  return (await response.json()) as T;
}

/** 'лекций' after 'X / Y' as Russian reads it ('X из Y'), worked out independently of the app. */
const lectures = (total: number) => {
  const rule = new Intl.PluralRules('ru').select(total);
  return rule === 'one' ? 'лекции' : 'лекций';
};

const summary = async (page: Page, id: number) =>
  (await getJson<{ result: { course: CourseSummary } }>(page, `/api/admin/courses/${id}`)).result.course;

const modules = async (page: Page, id: number) =>
  (await getJson<{ result: { modules: LearnerModule[] } }>(page, `/api/courses/${id}/modules-structured`)).result
    .modules;

test('a learner opens a course from home, starts and completes a lesson, and the progress moves', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, LEARNER, DEMO_PASSWORD);
  const categories = (await getJson<{ result: { categories: HomeCategory[] } }>(page, '/api/user/courses')).result
    .categories;

  // a course with a lesson neither started nor completed, followed by another item
  let target: { courseId: number; lessonId: number; lessonName: string; nextLink: string } | null = null;
  for (const course of categories.flatMap((c) => c.items)) {
    const id = Number(course.url.split('/').pop());
    const items = (await modules(page, id)).flatMap((m) => m.lessonsList);
    const at = items.findIndex((i) => i.type === 'lesson' && !i.started_at && !i.completed_at);
    if (at >= 0 && items[at + 1]) {
      target = { courseId: id, lessonId: items[at]!.id, lessonName: items[at]!.name, nextLink: items[at + 1]!.link };
      break;
    }
  }
  expect(target, 'the demo has a lesson not started yet').not.toBeNull();
  const { courseId, lessonId, lessonName, nextLink } = target!;
  const before = await summary(page, courseId);

  // home → course page
  await page.locator(`a[href="/courses/${courseId}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/courses/${courseId}$`));
  const card = page.getByTestId('course-summary');
  await expect(card.getByText('Курс', { exact: true })).toBeVisible();
  await expect(card.getByRole('heading', { name: before.title })).toBeVisible();
  await expect(card.getByText(`${before.progress}%`)).toBeVisible();
  if (before.lessons_count > 0) {
    await expect(
      card.getByText(`${before.completed_lessons_count} / ${before.lessons_count} ${lectures(before.lessons_count)}`),
    ).toBeVisible();
  }
  await expect(page.getByText('Скрыть пройденные лекции')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(SCREENS, 'course-desktop.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // the lesson's module is open (it is the first unfinished item or comes after it): open it if not
  const lessonLink = page.locator(`a[href="/courses/${courseId}/lesson/${lessonId}"]`);
  if (!(await lessonLink.isVisible())) {
    const module = (await modules(page, courseId)).find((m) => m.lessonsList.some((i) => i.id === lessonId))!;
    await page.getByRole('button', { name: module.name }).click();
  }
  await lessonLink.click();

  // the confirm dialog, then the running timer
  const dialog = page.getByRole('dialog', { name: 'Начало урока' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Вы хотите начать урок?')).toBeVisible();
  await page.screenshot({ path: join(SCREENS, 'lesson-dialog-desktop.png') });
  await dialog.getByRole('button', { name: 'Да' }).click();
  await expect(toast(page, 'Урок успешно начат')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: lessonName })).toBeVisible();
  await expect(page.getByText('Время урока')).toBeVisible();
  const timer = page.getByTestId('lesson-timer');
  const first = await timer.textContent();
  await expect(timer).not.toHaveText(first ?? '', { timeout: 3000 });
  await page.screenshot({ path: join(SCREENS, 'lesson-desktop.png'), fullPage: true });

  // complete
  await page.getByRole('button', { name: 'Отметить урок завершенным' }).click();
  await expect(toast(page, 'Урок успешно завершен')).toBeVisible();
  await expect(page.getByText(/^Урок завершен, затраченное время: \d\d:\d\d:\d\d$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Отметить урок завершенным' })).toBeHidden();

  // the contents panel opens and closes with Escape
  await page.getByRole('button', { name: 'Содержание' }).click();
  const panel = page.getByRole('dialog', { name: 'Содержание' });
  await expect(panel).toBeVisible();
  await expect(panel.locator(`a[href="/courses/${courseId}/lesson/${lessonId}"]`)).toBeVisible();
  await page.waitForTimeout(300); // the slide-in, for the screenshot only
  await page.screenshot({ path: join(SCREENS, 'contents-desktop.png') });
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // the next button goes to the next item
  await page.getByRole('link', { name: 'Следующий урок' }).click();
  await expect(page).toHaveURL(new RegExp(`${nextLink}$`));

  // the course page shows the engine's new progress
  const after = await summary(page, courseId);
  expect(after.completed_lessons_count).toBe(before.completed_lessons_count + 1);
  await page.goto(`/courses/${courseId}`);
  await expect(card.getByText(`${after.progress}%`)).toBeVisible();
  await expect(
    card.getByText(`${after.completed_lessons_count} / ${after.lessons_count} ${lectures(after.lessons_count)}`),
  ).toBeVisible();

  // hide completed: the finished lesson goes away
  await expect(page.locator(`a[href="/courses/${courseId}/lesson/${lessonId}"]`)).toHaveCount(1);
  await page.getByRole('switch', { name: 'Скрыть пройденные лекции' }).click();
  await expect(page.locator(`a[href="/courses/${courseId}/lesson/${lessonId}"]`)).toHaveCount(0);

  // the home card moved too
  await page.getByRole('main').getByRole('link', { name: 'На главную' }).click();
  await expect(page).toHaveURL(/\/$/);
  const home = page.locator(`a[href="/courses/${courseId}"]`).first();
  await expect(
    home.getByText(`${after.completed_lessons_count}/${after.lessons_count} ${lectures(after.lessons_count)}`),
  ).toBeVisible();
});

test('course and lesson pages hold at a 390 px phone width', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, LEARNER, DEMO_PASSWORD);
  const categories = (await getJson<{ result: { categories: HomeCategory[] } }>(page, '/api/user/courses')).result
    .categories;
  const course = categories.flatMap((c) => c.items)[0]!;
  const id = Number(course.url.split('/').pop());
  await page.goto(course.url);
  await expect(page.getByTestId('course-summary')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join(SCREENS, 'course-phone.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  const lesson = (await modules(page, id)).flatMap((m) => m.lessonsList).find((i) => i.type === 'lesson')!;
  await page.goto(lesson.link);
  await expect(page.getByRole('heading', { level: 1, name: lesson.name })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(SCREENS, 'lesson-phone.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Содержание' }).click();
  const panel = page.getByRole('dialog', { name: 'Содержание' });
  await expect(panel).toBeVisible();
  // Sub-pixel widths come from the slide-in transform: compare whole pixels once it has settled.
  await expect.poll(async () => Math.round((await panel.boundingBox())?.width ?? Infinity)).toBeLessThanOrEqual(390);
  await page.waitForTimeout(300); // the slide-in, for the screenshot only
  await page.screenshot({ path: join(SCREENS, 'contents-phone.png') });
  await panel.getByRole('button', { name: 'Закрыть содержание' }).click();
  await expect(panel).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
