import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConstructorLesson, CourseSummary, HomeCategory, HomeCourse, LearnerModule } from '@lms/contract';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN, ROOT, startServer, type RunningServer } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';

/**
 * The learner's course page shows the course's cover, description and deadline as the home card
 * does (none once the course is complete), and a lesson's video on a host without a player stays
 * reachable through 'Открыть видео в новом окне'. The spec runs its own server: it changes a lesson.
 */

const LEARNER = `learner@${LOGIN_DOMAIN}`;
/** Мария Кузнецова: the demo learner who has completed courses with a deadline. */
const COMPLETER = `m.kuznetsova@${LOGIN_DOMAIN}`;
const AUTHOR = `author@${LOGIN_DOMAIN}`;
const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const FOREIGN_VIDEO = 'https://video.example.org/watch/42';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

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

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(page, email, DEMO_PASSWORD, { url: server.url });
  return page;
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(`${server.url}${path}`);
  expect(response.ok(), path).toBe(true);
  return (await response.json()) as T;
}

const homeCourses = async (page: Page): Promise<HomeCourse[]> =>
  (await getJson<{ result: { categories: HomeCategory[] } }>(page, '/api/user/courses')).result.categories.flatMap(
    (c) => c.items,
  );

const summary = async (page: Page, id: number): Promise<CourseSummary> =>
  (await getJson<{ result: { course: CourseSummary } }>(page, `/api/admin/courses/${id}`)).result.course;

const courseId = (course: HomeCourse) => Number(course.url.split('/').pop());

/** Screenshots of the page at a desktop and a phone width; the page must not scroll sideways. */
async function screenshots(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0); // no tooltip left open by the last click
  await page.screenshot({ path: join(SCREENS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(SCREENS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

test('the course page shows the cover, the description and the deadline as the home card does', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await signedIn(browser, LEARNER);
  const courses = await homeCourses(page);
  const course = courses.find((c) => !c.complete && c.deadline !== null && c.image !== null);
  expect(course, 'the demo learner has a course in progress with a cover and a deadline').toBeDefined();
  const id = courseId(course!);
  const about = await summary(page, id);
  expect(about.description.length).toBeGreaterThan(0);

  // what the home card says of the deadline
  const card = page.locator(`a[href="${course!.url}"]`).first();
  const cardDeadline = card.getByTestId('course-deadline');
  await expect(cardDeadline).toHaveText(/^(Осталось .+|Просрочено)$/);
  const deadlineText = await cardDeadline.innerText();
  const tone = await cardDeadline.getAttribute('data-deadline-tone');

  await card.click();
  await expect(page).toHaveURL(`${server.url}/courses/${id}`);
  const summaryCard = page.getByTestId('course-summary');
  await expect(summaryCard.getByRole('heading', { name: about.title })).toBeVisible();
  await expect(summaryCard.locator('img')).toHaveAttribute('src', about.image!);
  await expect(summaryCard.locator('img')).toHaveJSProperty('complete', true);
  expect(await summaryCard.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(summaryCard.getByText(about.description.split('\n')[0]!)).toBeVisible();
  const pageDeadline = summaryCard.getByTestId('course-deadline');
  await expect(pageDeadline).toHaveText(deadlineText);
  await expect(pageDeadline).toHaveAttribute('data-deadline-tone', tone!);
  await expect(summaryCard.getByText('Курс пройден')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshots(page, 'course-page-in-progress');
});

test('a completed course shows no countdown, on the course page or on the home card', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await signedIn(browser, COMPLETER);
  // completed while its deadline is still ahead: a countdown would have something to count
  const course = (await homeCourses(page)).find(
    (c) => c.complete && c.deadline !== null && new Date(c.deadline).getTime() > Date.now(),
  );
  expect(course, 'the demo has a completed course whose deadline is still ahead').toBeDefined();
  const id = courseId(course!);
  const about = await summary(page, id);
  expect(about.complete).toBe(true);

  const card = page.locator(`a[href="${course!.url}"]`).first();
  await expect(card.getByText('Курс пройден')).toBeVisible();
  await expect(card.getByTestId('course-deadline')).toHaveCount(0);
  await expect(card).not.toContainText('Осталось');

  await card.click();
  const summaryCard = page.getByTestId('course-summary');
  await expect(summaryCard.getByRole('heading', { name: about.title })).toBeVisible();
  await expect(summaryCard.getByText('Курс пройден')).toBeVisible();
  await expect(summaryCard.getByText('100%')).toBeVisible();
  await expect(summaryCard.getByTestId('course-deadline')).toHaveCount(0);
  await expect(summaryCard).not.toContainText('Осталось');
  await screenshots(page, 'course-page-completed');
});

test('a video on a host without a player opens in a new window; unsafe links are refused on save', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const learner = await signedIn(browser, LEARNER);
  // a lesson the learner has finished (no start dialog), with a video block
  let target: { course: number; lesson: number; name: string } | null = null;
  const author = await signedIn(browser, AUTHOR);
  let blocks: ConstructorLesson['contents'] = [];
  for (const course of await homeCourses(learner)) {
    const modules = (
      await getJson<{ result: { modules: LearnerModule[] } }>(
        learner,
        `/api/courses/${courseId(course)}/modules-structured`,
      )
    ).result.modules;
    for (const item of modules.flatMap((m) => m.lessonsList)) {
      if (item.type !== 'lesson' || item.completed_at === null) continue;
      const path = `${server.url}/api/courses/${courseId(course)}/lessons/${item.id}`;
      const lesson = ((await apiCall(author, 'GET', path)) as { result: { lesson: ConstructorLesson } }).result.lesson;
      if (lesson.contents.some((b) => b.type === 'video')) {
        target = { course: courseId(course), lesson: item.id, name: item.name };
        blocks = lesson.contents;
        break;
      }
    }
    if (target) break;
  }
  expect(target, 'the demo learner has finished a lesson with a video').not.toBeNull();
  const { course, lesson, name } = target!;
  const contentsPath = `${server.url}/api/courses/${course}/lessons/${lesson}/contents`;
  const withVideo = (url: string) => blocks.map((b) => (b.type === 'video' ? { ...b, content: { url } } : b));

  // the server refuses a link that leads off the site by a trick, in Russian, and keeps the lesson
  const cookies = await author.context().cookies();
  const xsrf = decodeURIComponent(cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  for (const bad of ['/\\evil.example/film', '//evil.example/film', 'javascript:alert(1)']) {
    const refused = await author.request.put(contentsPath, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': xsrf },
      data: { contents: withVideo(bad) },
    });
    expect(refused.status(), bad).toBe(422);
    expect(((await refused.json()) as { result: { message: string } }).result.message).toBe(
      'Некорректная ссылка на видео: укажите адрес, начинающийся с http:// или https://',
    );
  }
  await apiCall(author, 'PUT', contentsPath, { contents: withVideo(FOREIGN_VIDEO) });

  // the learner's lesson: no player, no error, the link opens the video in a new window without a handle
  await learner
    .context()
    .route('https://video.example.org/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Видео</title><p>Видео</p>' }),
    );
  await learner.goto(`${server.url}/courses/${course}/lesson/${lesson}`);
  await expect(learner.getByRole('heading', { level: 1, name })).toBeVisible();
  const video = learner.locator('[data-block="video"]');
  await expect(video).toBeVisible();
  await expect(video.locator('iframe')).toHaveCount(0);
  await expect(learner.getByText('Ошибка при загрузке видео')).toHaveCount(0);
  await expect(video).toContainText('Это видео размещено на другом сайте и откроется в новом окне');
  const open = video.getByRole('link', { name: 'Открыть видео в новом окне' });
  await expect(open).toHaveAttribute('href', FOREIGN_VIDEO);
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('rel', 'noopener noreferrer');
  expect(await seriousViolations(learner)).toEqual([]);
  await video.scrollIntoViewIfNeeded();
  await screenshots(learner, 'lesson-foreign-video');

  const [popup] = await Promise.all([learner.waitForEvent('popup'), open.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(FOREIGN_VIDEO);
  expect(await popup.evaluate(() => window.opener === null)).toBe(true);
  await popup.close();

  // the constructor shows the server's Russian message, and the lesson stays as it was
  await author.goto(`${server.url}/management/constructor/${course}/${lesson}`);
  const editorBlocks = author.getByTestId('block-video');
  const before = blocks.filter((b) => b.type === 'video').length;
  await expect(editorBlocks).toHaveCount(before);
  await author.getByRole('button', { name: 'Добавить блок' }).click();
  await author.getByRole('menuitem', { name: 'Видео', exact: true }).click();
  const added = editorBlocks.nth(before);
  await added.getByRole('textbox', { name: 'Ссылка на видео' }).fill('/\\evil.example/film');
  await author.getByRole('region', { name: 'Урок', exact: true }).getByRole('button', { name: 'Сохранить' }).click();
  await expect(
    toast(author, 'Некорректная ссылка на видео: укажите адрес, начинающийся с http:// или https://'),
  ).toBeVisible();
  const kept = (
    (await apiCall(author, 'GET', contentsPath.replace(/\/contents$/, ''))) as {
      result: { lesson: ConstructorLesson };
    }
  ).result.lesson.contents;
  expect(kept.filter((b) => b.type === 'video').map((b) => b.content)).toEqual([{ url: FOREIGN_VIDEO, videoId: null }]);
});
