import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { HOSTILE_TARGETS, hostilePackage, resumeText, scormPackage } from '../../apps/api/src/test/scormPackages.js';
import { DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';

/**
 * SCORM packages as lessons (issue 34): an author adds a SCORM item, uploads a package and
 * publishes it; an enrolled learner plays it — progress and a score reach the course, a closed page
 * resumes where it was — and a hostile package finds its frame shut.
 * The packages are built here by the API's test builder; no archive is kept in the repository.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const AUTHOR = `author@${LOGIN_DOMAIN}`;
const LEARNER = `learner@${LOGIN_DOMAIN}`;
const STAMP = Date.now().toString(36);
const COURSE = `Охрана труда ${STAMP}`;
const MODULE = 'Вводный инструктаж';
const ITEM = 'Инструктаж по охране труда';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** At most five toasts show at once, 7 s each: a later one may wait for a place. */
const TOAST_WAIT = 16_000;

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

type Created = { result: { item: { id: number } } };

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
  await page.setViewportSize(DESKTOP);
  await signIn(page, email, DEMO_PASSWORD);
  return page;
}

/** A course of the author's own with one module, assigned to the learner (not open to everyone). */
async function courseFor(author: Page, learner: Page, title: string): Promise<{ courseId: number; moduleId: number }> {
  const courseId = ((await apiCall(author, 'POST', '/api/courses', { name: title })) as Created).result.item.id;
  const moduleId = (
    (await apiCall(author, 'POST', '/api/courses/modules', { name: MODULE, course_id: courseId })) as Created
  ).result.item.id;
  const me = (await apiCall(learner, 'GET', '/api/check-auth')) as { id: number };
  await apiCall(author, 'POST', `/api/courses/${courseId}/assignment/users`, { user_ids: [me.id] });
  await apiCall(author, 'PUT', `/api/courses/${courseId}`, { accessibility: 'enrolled_only' });
  return { courseId, moduleId };
}

/** A SCORM item made and filled through the API (the hostile one: its constructor steps are the first test's). */
async function scormItemByApi(author: Page, courseId: number, moduleId: number, name: string, zip: Buffer) {
  const lessonId = (
    (await apiCall(author, 'POST', '/api/courses/lessons', { name, module_id: moduleId, kind: 'scorm' })) as Created
  ).result.item.id;
  const xsrf = (await author.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const upload = await author.request.post(`/api/courses/${courseId}/lessons/${lessonId}/scorm`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
    multipart: { file: { name: 'package.zip', mimeType: 'application/zip', buffer: zip } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await apiCall(author, 'PUT', `/api/courses/${courseId}/lessons/${lessonId}`, { name, is_published: true });
  return lessonId;
}

/** The page once its animations have ended: the section alone, or what the window shows. */
async function shoot(page: Page, name: string, what?: Locator) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))));
  const path = join(SCREENS, name);
  await (what ? what.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
}

const frameOf = (page: Page, name: string) => page.frameLocator(`iframe[title="SCORM-пакет: ${name}"]`);

test('an author adds a SCORM package; a learner plays it, the course shows the score, and a closed page resumes', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const author = await signedIn(browser, AUTHOR);
  const learner = await signedIn(browser, LEARNER);
  const { courseId } = await courseFor(author, learner, COURSE);

  // ── the author: a third choice in the module, then the item's page ──
  await author.goto(`/management/constructor/${courseId}`);
  const panel = author.getByRole('navigation', { name: 'Структура курса' });
  await panel.getByRole('button', { name: `Добавить урок в модуль «${MODULE}»` }).click();
  const type = author.getByRole('dialog', { name: 'Выберите тип урока' });
  await type.getByRole('radio', { name: /SCORM-пакет/ }).check();
  await shoot(author, 'scorm-type-dialog-1280.png', type);
  await type.getByRole('button', { name: 'Далее' }).click();
  const naming = author.getByRole('dialog', { name: 'Создание SCORM-урока' });
  const name = naming.getByRole('textbox', { name: 'Название урока' });
  await expect(name).toHaveValue('Новый SCORM-пакет');
  await name.fill(ITEM);
  await naming.getByRole('button', { name: 'Создать урок' }).click();
  await expect(author).toHaveURL(/\/management\/constructor\/\d+\/\d+$/);
  const lessonId = Number(author.url().split('/').pop());
  await expect(panel.getByTestId('constructor-item').filter({ hasText: ITEM })).toContainText('SCORM');

  // Publishing before a package is refused in the server's words.
  const status = author.getByRole('switch', { name: 'Статус урока' });
  await status.click({ force: true });
  await expect(toast(author, 'Сначала загрузите SCORM-пакет, затем опубликуйте его')).toBeVisible({
    timeout: TOAST_WAIT,
  });
  await expect(status).not.toBeChecked();

  // A file that is not a package: the server's refusal names the problem, in place.
  const upload = author.getByRole('region', { name: 'Загрузка пакета' });
  await upload.getByLabel('Загрузить SCORM-пакет').setInputFiles({
    name: 'not-a-package.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('not a zip at all'),
  });
  await expect(upload.getByRole('alert')).toContainText('ZIP');
  await shoot(author, 'scorm-upload-refused-1280.png', upload);

  const zip = await scormPackage({
    standard: '1.2',
    title: 'Охрана труда: вводный курс',
    scos: [{ id: 'sco-1', title: 'Раздел 1' }],
  });
  await upload.getByLabel('Загрузить SCORM-пакет').setInputFiles({
    name: 'ohrana-truda.zip',
    mimeType: 'application/zip',
    buffer: zip,
  });
  await expect(toast(author, 'SCORM-пакет загружен')).toBeVisible({ timeout: TOAST_WAIT });
  const versions = author.getByRole('region', { name: 'Версии пакета' });
  await expect(versions.getByRole('listitem')).toHaveCount(1);
  await expect(versions).toContainText('Версия 1');
  await expect(versions).toContainText('SCORM 1.2 · 1 раздел');
  await expect(versions).toContainText('ohrana-truda.zip');
  await expect(versions).toContainText('0 учеников');
  await expect(upload.getByRole('button', { name: 'Загрузить новую версию' })).toBeVisible();
  await expect(upload.getByRole('alert')).toBeHidden();

  expect(await seriousViolations(author, '.mantine-Notifications-root')).toEqual([]);
  await status.click({ force: true });
  await expect(status).toBeChecked();
  await expect(toast(author, 'Урок опубликован')).toBeVisible({ timeout: TOAST_WAIT });
  await apiCall(author, 'POST', `/api/courses/${courseId}/publish`, { is_published: true });
  await shoot(author, 'scorm-constructor-1280.png');
  await author.setViewportSize(PHONE);
  await shoot(author, 'scorm-constructor-390.png');

  // ── the learner: the package reports progress, the page closes, the lesson opens again ──
  const lessonPath = `/courses/${courseId}/lesson/${lessonId}`;
  await learner.goto(lessonPath);
  await expect(learner.getByRole('heading', { level: 1, name: ITEM })).toBeVisible();
  await expect(learner.getByRole('button', { name: 'Отметить урок завершенным' })).toHaveCount(0);
  const sco = frameOf(learner, ITEM);
  await expect(sco.locator('#status')).toHaveText('initialized');
  await expect(sco.locator('#resume')).toHaveText(resumeText('', ''));
  await sco.locator('#progress').click();
  await expect(sco.locator('#status')).toHaveText('saved: state-1');
  await expect(learner.getByTestId('scorm-status')).toHaveText('Статус: В процессе');
  await shoot(learner, 'scorm-player-1280.png');
  expect(await seriousViolations(learner)).toEqual([]);
  await learner.close();

  const again = await learner.context().newPage();
  await again.setViewportSize(PHONE);
  await again.goto(lessonPath);
  const resumed = frameOf(again, ITEM);
  await expect(resumed.locator('#resume')).toHaveText(resumeText('page-2', 'state-1'));
  await shoot(again, 'scorm-player-390.png');
  await again.setViewportSize(DESKTOP);

  // A score: the package is passed, the lesson completes itself and the course page shows it.
  await resumed.locator('#score').click();
  await expect(resumed.locator('#status')).toHaveText('scored');
  await expect(again.getByTestId('scorm-status')).toHaveText('Статус: Пройден');
  await expect(again.getByText('Результат: 85%')).toBeVisible();

  await again.goto(`/courses/${courseId}`);
  await expect(again.getByText('1 / 1 лекции')).toBeVisible();
  // Everything is done, so no module opens by itself.
  await again.getByRole('button', { name: MODULE }).click();
  const row = again.getByRole('link', { name: new RegExp(ITEM) });
  await expect(row).toContainText('85%');
  await expect(row.getByRole('img', { name: 'SCORM-пакет' })).toBeVisible();
  await shoot(again, 'scorm-course-page-1280.png');

  // The author sees the learner on the version.
  await author.setViewportSize(DESKTOP);
  await author.reload();
  await expect(author.getByRole('region', { name: 'Версии пакета' })).toContainText('1 ученик');

  await author.context().close();
  await again.context().close();
});

test('a hostile package finds its frame shut: no cookies, no API with the session, no leaving the lesson', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const author = await signedIn(browser, AUTHOR);
  const learner = await signedIn(browser, LEARNER);
  const { courseId, moduleId } = await courseFor(author, learner, `Изоляция пакетов ${STAMP}`);
  const name = 'Недобросовестный пакет';
  const lessonId = await scormItemByApi(author, courseId, moduleId, name, await hostilePackage());
  await apiCall(author, 'POST', `/api/courses/${courseId}/publish`, { is_published: true });

  const lessonUrl = `${process.env.E2E_BASE_URL}/courses/${courseId}/lesson/${lessonId}`;
  await learner.goto(lessonUrl);
  const report = frameOf(learner, name).locator('#report[data-done="true"]');
  await expect(report).toBeVisible();
  // Each try fails: the frame has no origin of its own, so no cookie, storage, parent or session.
  expect((await report.innerText()).split('\n')).toEqual([
    'cookie: blocked',
    'storage: blocked',
    'parent: blocked',
    'api: blocked',
    'top: blocked',
  ]);
  // However the try to move the top window went, the learner is still on the lesson.
  await expect(learner.getByRole('heading', { level: 1, name })).toBeVisible();
  expect(learner.url()).toBe(lessonUrl);
  expect(learner.url()).not.toContain(HOSTILE_TARGETS.top);
  await shoot(learner, 'scorm-hostile-1280.png');

  await author.context().close();
  await learner.context().close();
});

test('a package of several sections lists them in order; each opens its own, and its result shows beside it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const author = await signedIn(browser, AUTHOR);
  const learner = await signedIn(browser, LEARNER);
  const { courseId, moduleId } = await courseFor(author, learner, `Переговоры ${STAMP}`);
  const name = 'Переговоры: практикум';
  const zip = await scormPackage({
    standard: '2004',
    edition: '3rd',
    title: 'Переговоры',
    scos: [
      { id: 'intro', title: 'Введение' },
      { id: 'quiz', title: 'Проверка знаний' },
    ],
  });
  const lessonId = await scormItemByApi(author, courseId, moduleId, name, zip);
  await apiCall(author, 'POST', `/api/courses/${courseId}/publish`, { is_published: true });

  await learner.goto(`/courses/${courseId}/lesson/${lessonId}`);
  const sections = learner.getByRole('navigation', { name: 'Разделы пакета' });
  await expect(sections.getByRole('listitem')).toHaveText([/^Введение/, /^Проверка знаний/]);
  const frame = frameOf(learner, name);
  await expect(frame.getByRole('heading', { name: 'Введение' })).toBeVisible();
  await expect(sections.getByRole('button', { name: /Введение/ })).toHaveAttribute('aria-current', 'step');

  await sections.getByRole('button', { name: /Проверка знаний/ }).click();
  await expect(frame.getByRole('heading', { name: 'Проверка знаний' })).toBeVisible();
  await expect(sections.getByRole('button', { name: /Проверка знаний/ })).toHaveAttribute('aria-current', 'step');
  await expect(frame.locator('#status')).toHaveText('initialized');
  await frame.locator('#score').click();
  await expect(sections.getByRole('listitem').nth(1)).toContainText('Пройден · 85%');
  // One of two sections done: the package is under way, the lesson not yet complete.
  await expect(learner.getByTestId('scorm-status')).toHaveText('Статус: В процессе');
  await shoot(learner, 'scorm-sections-1280.png');

  // 'На весь экран' gives the screen to the frame's box (the page's own controls stay out of it).
  await learner.getByRole('button', { name: 'На весь экран' }).click();
  await expect
    .poll(() => learner.evaluate(() => document.fullscreenElement?.querySelector('iframe')?.title ?? null))
    .toBe(`SCORM-пакет: ${name}`);
  await learner.evaluate(() => document.exitFullscreen());
  await expect.poll(() => learner.evaluate(() => document.fullscreenElement === null)).toBe(true);
  expect(await seriousViolations(learner)).toEqual([]);
  await learner.setViewportSize(PHONE);
  await shoot(learner, 'scorm-sections-390.png');

  await author.context().close();
  await learner.context().close();
});
