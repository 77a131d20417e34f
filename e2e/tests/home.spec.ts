import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeCategory, HomeCourse, StartedLesson } from '@lms/contract';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, ROOT } from '../server.js';
import { signIn } from './helpers.js';

/** Home page (docs/product.md §Home) for the demo learner. */

const LEARNER = 'learner@example.com';
const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const TIME_ZONE = 'Europe/Moscow'; // the browser's zone (playwright.config.ts)

test.use({ baseURL: process.env.E2E_BASE_URL });

test.beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

/** The calendar day of a moment in the browser's time zone, as days since the epoch. */
function dayNumber(date: Date): number {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(date)
    .split('-')
    .map(Number);
  return Date.UTC(y!, m! - 1, d!) / 86_400_000;
}

/** What the card should say about the deadline (docs/product.md §Course card), worked out independently of the app. */
function expectedDeadline(deadline: string | null, now: Date): string | null {
  if (!deadline) return null;
  const at = new Date(deadline);
  if (at.getTime() < now.getTime()) return 'Просрочено';
  const days = dayNumber(at) - dayNumber(now);
  if (days <= 0) return 'Осталось Сегодня';
  const rule = new Intl.PluralRules('ru').select(days);
  const word = rule === 'one' ? 'день' : rule === 'few' ? 'дня' : 'дней';
  return `Осталось ${days} ${word}`;
}

async function userCourses(page: Page): Promise<HomeCategory[]> {
  const response = await page.request.get('/api/user/courses');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { result: { success: boolean; categories: HomeCategory[] } };
  expect(body.result.success).toBe(true);
  return body.result.categories;
}

async function startedLessons(page: Page): Promise<StartedLesson[]> {
  const response = await page.request.get('/api/user/started-lessons');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { items: StartedLesson[] } }).result.items;
}

function courseCard(page: Page, course: HomeCourse): Locator {
  return page.locator(`a[href="${course.url}"]`);
}

async function expectCard(card: Locator, course: HomeCourse, now: Date) {
  await expect(card).toBeVisible();
  await expect(card).toContainText(course.name);
  await expect(card).toContainText(`Учебные группы: ${course.groups}`);
  await expect(card).toContainText(`Ученики: ${course.students}`);
  // 'X/Y лекций' reads 'X из Y': the noun agrees with Y ('0/1 лекции', '2/3 лекций')
  const one = (n: number) => new Intl.PluralRules('ru').select(n) === 'one';
  const lessons = `${course.lessons.completed}/${course.lessons.total} ${one(course.lessons.total) ? 'лекции' : 'лекций'}`;
  const tests = `${course.test.completed}/${course.test.total} ${one(course.test.total) ? 'теста' : 'тестов'}`;
  if (course.lessons.total > 0) await expect(card).toContainText(lessons);
  else await expect(card).not.toContainText(/\d\/\d+ лекци/);
  if (course.test.total > 0) await expect(card).toContainText(tests);
  else await expect(card).not.toContainText(/\d\/\d+ тест/);
  if (course.progress > 0) {
    await expect(card.getByRole('progressbar')).toBeVisible();
    await expect(card).toContainText(`${course.progress}%`);
  } else {
    await expect(card.getByRole('progressbar')).toHaveCount(0);
  }
  if (course.complete) await expect(card).toContainText('Курс пройден');
  else await expect(card).not.toContainText('Курс пройден');
  // a completed course has nothing left to do: no countdown
  const deadline = course.complete ? null : expectedDeadline(course.deadline, now);
  const shown = card.getByTestId('course-deadline');
  if (deadline === null) {
    await expect(shown).toHaveCount(0);
  } else {
    await expect(shown).toHaveText(deadline);
    const tone =
      deadline === 'Просрочено' || course.deadline_status === 'overdue'
        ? 'overdue'
        : course.deadline_status === 'almost_overdue'
          ? 'almost_overdue'
          : 'normal';
    await expect(shown).toHaveAttribute('data-deadline-tone', tone);
  }
}

test.describe('home', () => {
  test('the demo learner sees the greeting and their courses with correct counters and deadlines', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, LEARNER, DEMO_PASSWORD);
    const categories = await userCourses(page);
    const now = new Date();
    const courses = categories.flatMap((c) => c.items);
    expect(courses.length).toBeGreaterThan(0);

    const check = (await (await page.request.get('/api/check-auth')).json()) as { name: string };
    const firstName = check.name.trim().split(/\s+/)[1];
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${firstName}, добрый день!`);
    await expect(
      page.getByText('Сегодня отличный день, чтобы узнать новое или закрепить знания на практике'),
    ).toBeVisible();

    for (const category of categories.filter((c) => c.items.length > 0)) {
      const section = page.getByRole('region', { name: category.name, exact: true });
      await expect(section).toBeVisible();
      await expect(section.locator('a[href^="/courses/"]')).toHaveCount(category.items.length);
    }
    for (const course of courses) await expectCard(courseCard(page, course), course, now);
    // the demo has overdue-free, almost-overdue and plain deadlines: at least one deadline shows
    expect(courses.some((c) => c.deadline !== null)).toBe(true);

    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(SCREENS, 'home-desktop.png'), fullPage: true });
  });

  test('searches course names: a match hides the rest, no match gives the not-found text', async ({ page }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);
    const categories = await userCourses(page);
    const courses = categories.flatMap((c) => c.items);
    const target = courses[courses.length - 1]!;
    const word = target.name.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;
    const query = `  ${word.toLocaleUpperCase('ru-RU')} `;
    const expected = courses.filter((c) => c.name.toLocaleLowerCase('ru-RU').includes(word.toLocaleLowerCase('ru-RU')));

    const search = page.getByRole('textbox', { name: 'Поиск по курсам' });
    await expect(courseCard(page, courses[0]!)).toBeVisible();
    await search.fill(query);
    for (const course of courses) {
      if (expected.includes(course)) await expect(courseCard(page, course)).toBeVisible();
      else await expect(courseCard(page, course)).toHaveCount(0);
    }
    for (const category of categories.filter((c) => c.items.length > 0)) {
      const hasMatch = category.items.some((c) => expected.includes(c));
      await expect(page.getByRole('region', { name: category.name, exact: true })).toHaveCount(hasMatch ? 1 : 0);
    }

    await search.fill('Квантовая астрофизика');
    await expect(page.getByText('По запросу "Квантовая астрофизика" ничего не найдено')).toBeVisible();
    await expect(page.locator('a[href^="/courses/"][href$="' + courses[0]!.id + '"]')).toHaveCount(0);
  });

  test('continues a started lesson from the slider', async ({ page }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);
    const lessons = await startedLessons(page);
    expect(lessons.length).toBeGreaterThan(0);
    const block = page.getByRole('region', { name: 'Продолжить просмотр' });
    await expect(block).toBeVisible();
    const cards = block.getByRole('link');
    await expect(cards).toHaveCount(Math.min(2, lessons.length));
    const first = lessons[0]!;
    const link = block.locator(`a[href="/courses/${first.course_id}/lesson/${first.id}"]`);
    await expect(link).toContainText(first.name);
    await expect(link).toContainText(first.module);
    await expect(link).toContainText(first.section);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/courses/${first.course_id}/lesson/${first.id}$`));
  });

  test('holds at a 390 px phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, LEARNER, DEMO_PASSWORD);
    await expect(page.getByRole('region', { name: 'Продолжить просмотр' })).toBeVisible();
    await expect(page.locator('a[href^="/courses/"]').first()).toBeVisible();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(SCREENS, 'home-mobile.png') });
    await page.screenshot({ path: join(SCREENS, 'home-mobile-full.png'), fullPage: true });
  });
});
