import { mkdirSync } from 'node:fs';
import type { ConstructorCourse, ConstructorModule, HomeCategory } from '@lms/contract';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN } from '../server.js';
import { apiCall, baseUrl, signIn, toast } from './helpers.js';
import { solidPng } from './png.js';

/**
 * Test authoring and course settings (docs/product.md §Test authoring): an author creates a test from the
 * lesson-type dialog, writes a text question and an image question with uploaded pictures, saves
 * and finds them after a reload; then sets a 10-day deadline (3 warning days) and re-certification
 * every 365 days; the demo learner enrolled in the course sees the deadline on the home card.
 */

const SHOTS = '/tmp/shots';
const AUTHOR = `author@${LOGIN_DOMAIN}`;
const LEARNER = `learner@${LOGIN_DOMAIN}`;
/** The demo learner was enrolled in it directly and started it about 2 days ago (apps/api/src/demo). */
const COURSE = 'Эффективные переговоры';
const STAMP = Date.now().toString(36);
const TOAST_WAIT = 16_000;
const TIME_ZONE = 'Europe/Moscow'; // the browser's zone (playwright.config.ts)
const DAY = 86_400_000;

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

// ── helpers ──

/** The id of a course found by its name anywhere in the catalogue answer. */
function findCourseId(value: unknown, name: string): number | null {
  if (Array.isArray(value)) {
    for (const v of value) {
      const id = findCourseId(v, name);
      if (id !== null) return id;
    }
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ((record.name === name || record.title === name) && typeof record.id === 'number') return record.id;
    for (const v of Object.values(record)) {
      const id = findCourseId(v, name);
      if (id !== null) return id;
    }
  }
  return null;
}

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
  return Date.UTC(y!, m! - 1, d!) / DAY;
}

/** 'Осталось N дней' worked out independently of the app (docs/product.md §Course card). */
function expectedLeft(deadline: Date, now: Date): string {
  const days = dayNumber(deadline) - dayNumber(now);
  if (days <= 0) return 'Осталось Сегодня';
  const rule = new Intl.PluralRules('ru').select(days);
  return `Осталось ${days} ${rule === 'one' ? 'день' : rule === 'few' ? 'дня' : 'дней'}`;
}

const question = (page: Page, n: number) => page.getByRole('region', { name: `Вопрос ${n}`, exact: true });

async function chooseImage(page: Page, q: number, a: number, name: string, data: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await question(page, q)
    .getByRole('button', { name: `Выбрать изображение: Ответ ${a} вопроса ${q}` })
    .click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: data });
  await expect(question(page, q).getByRole('img', { name: `Изображение ответа ${a}` })).toBeVisible();
}

test.describe('test authoring and course settings', () => {
  test('an author builds a test and sets the deadline; the learner sees it on the home card', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const courseId = findCourseId(await apiCall(page, 'GET', '/api/courses'), COURSE);
    if (courseId === null) throw new Error(`no course «${COURSE}»`);
    const before = (
      (await apiCall(page, 'GET', `/api/courses/${courseId}`)) as { result: { course: ConstructorCourse } }
    ).result.course;
    const modules = (
      (await apiCall(page, 'GET', `/api/courses/${courseId}/modules`)) as {
        result: { items: ConstructorModule[] };
      }
    ).result.items;
    const module = [...modules].sort((a, b) => a.sort_order - b.sort_order)[0]!;
    let testId: number | null = null;

    try {
      // ── create the test from the lesson-type dialog ──
      await page.goto(`/management/constructor/${courseId}`);
      const panel = page.getByRole('navigation', { name: 'Структура курса' });
      await panel
        .getByRole('group', { name: module.name, exact: true })
        .getByRole('button', { name: `Добавить урок в модуль «${module.name}»` })
        .click();
      const type = page.getByRole('dialog', { name: 'Выберите тип урока' });
      await type.getByRole('radio', { name: /Тест/ }).check();
      await type.getByRole('button', { name: 'Далее' }).click();
      const create = page.getByRole('dialog', { name: 'Настройте тест' });
      const name = create.getByRole('textbox', { name: 'Название теста' });
      await expect(name).toHaveValue('Новый тест');
      await name.fill(`Проверка знаний ${STAMP}`);
      const percent = create.getByRole('textbox', { name: /Проходной балл/ });
      await percent.fill('');
      await percent.pressSequentially('250');
      await expect(percent).toHaveValue('100');
      await percent.fill('70');
      await create.getByRole('switch', { name: 'Ограничение по времени' }).check({ force: true });
      const timer = create.getByRole('textbox', { name: /Время на тест/ });
      await timer.pressSequentially('009930');
      await expect(timer).toHaveValue('00:59:30');
      await create.getByRole('switch', { name: 'Случайный порядок вопросов' }).check({ force: true });
      await create.getByRole('switch', { name: 'Банк вопросов' }).check({ force: true });
      const random = create.getByRole('switch', { name: 'Случайный порядок вопросов' });
      await expect(random).not.toBeChecked();
      await expect(random).toBeDisabled();
      await create.getByRole('textbox', { name: /Вопросов из банка/ }).fill('2');
      await page.screenshot({ path: `${SHOTS}/test-settings-create.png` });
      const created = page.waitForResponse(
        (r) => r.url().endsWith('/api/courses/tests') && r.request().method() === 'POST',
      );
      await create.getByRole('button', { name: 'Добавить тест' }).click();
      const response = await created;
      expect(response.status()).toBe(201);
      const item = ((await response.json()) as { result: { item: { id: number; timer_seconds: number } } }).result.item;
      testId = item.id;
      expect(item.timer_seconds).toBe(3570);
      await expect(page).toHaveURL(new RegExp(`/management/constructor/${courseId}/test/${testId}$`));
      await expect(toast(page, 'Тест успешно создан').last()).toBeVisible({ timeout: TOAST_WAIT });
      await expect(page.getByRole('textbox', { name: 'Название теста' })).toHaveValue(`Проверка знаний ${STAMP}`);

      // ── a text question and an image question ──
      await page.getByRole('button', { name: 'Добавить вопрос' }).click();
      const q1 = question(page, 1);
      await q1.getByRole('textbox', { name: 'Текст вопроса 1' }).fill('Что важнее всего на первой встрече?');
      await q1.getByRole('textbox', { name: 'Ответ 1 вопроса 1' }).fill('Выяснить потребности клиента');
      await q1.getByRole('textbox', { name: 'Ответ 2 вопроса 1' }).fill('Сразу назвать цену');
      await q1.getByRole('radio', { name: 'Ответ 1 правильный' }).check();

      await page.getByRole('button', { name: 'Добавить вопрос' }).click();
      const q2 = question(page, 2);
      await q2.getByRole('textbox', { name: 'Текст вопроса 2' }).fill('Какой график показывает рост?');
      await q2.getByText('Ответы-изображения').click();
      await chooseImage(page, 2, 1, 'growth.png', solidPng(24, [40, 160, 90]));
      await chooseImage(page, 2, 2, 'fall.png', solidPng(24, [200, 60, 60]));
      await q2.getByRole('textbox', { name: 'Ответ 1 вопроса 2' }).fill('Зелёный');
      await q2.getByRole('radio', { name: 'Ответ 1 правильный' }).check();
      // an empty question is dropped on saving
      await page.getByRole('button', { name: 'Добавить вопрос' }).click();
      await expect(question(page, 3)).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/test-editor.png`, fullPage: true });

      const saved = page.waitForResponse(
        (r) => r.url().endsWith(`/api/admin/tests/${testId}/questions`) && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Сохранить тест' }).first().click();
      expect((await saved).status()).toBe(200);
      await expect(toast(page, 'Вопросы теста успешно сохранены!').last()).toBeVisible({ timeout: TOAST_WAIT });
      await expect(question(page, 3)).toHaveCount(0);

      await page.reload();
      await expect(question(page, 1).getByRole('textbox', { name: 'Текст вопроса 1' })).toHaveValue(
        'Что важнее всего на первой встрече?',
      );
      await expect(question(page, 1).getByRole('radio', { name: 'Ответ 1 правильный' })).toBeChecked();
      await expect(question(page, 2).getByRole('textbox', { name: 'Текст вопроса 2' })).toHaveValue(
        'Какой график показывает рост?',
      );
      await expect(question(page, 2).getByRole('radio', { name: 'Ответы-изображения' })).toBeChecked();
      await expect(question(page, 2).getByRole('textbox', { name: 'Ответ 1 вопроса 2' })).toHaveValue('Зелёный');
      for (const n of [1, 2]) {
        const img = question(page, 2).getByRole('img', { name: `Изображение ответа ${n}` });
        await expect(img).toHaveAttribute('src', /^\/storage\//);
        await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(24);
      }
      await page.screenshot({ path: `${SHOTS}/test-editor-reloaded.png`, fullPage: true });

      // the settings dialog in edit mode shows what was saved
      await page.getByRole('button', { name: 'Настройки теста' }).click();
      const edit = page.getByRole('dialog', { name: 'Настройки теста' });
      await expect(edit.getByRole('textbox', { name: /Проходной балл/ })).toHaveValue('70');
      await expect(edit.getByRole('textbox', { name: /Время на тест/ })).toHaveValue('00:59:30');
      await expect(edit.getByRole('switch', { name: 'Случайный порядок вопросов' })).toBeDisabled();
      await page.screenshot({ path: `${SHOTS}/test-settings-edit.png` });
      await edit.getByRole('button', { name: 'Сохранить настройки' }).click();
      await expect(toast(page, 'Настройки теста успешно сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });
      await expect(edit).toBeHidden();

      // ── course settings ──
      await page.getByRole('link', { name: 'Настройка курса' }).click();
      await expect(page).toHaveURL(new RegExp(`/management/constructor/${courseId}/settings$`));
      await page.getByRole('switch', { name: 'Ограничить срок прохождения' }).check({ force: true });
      await page.getByRole('radio', { name: 'С начала прохождения' }).check();
      const days = page.getByRole('textbox', { name: /Срок, дней/ });
      // 0 is not rewritten to 1: it stays, with the reason beside the field
      await days.fill('0');
      await days.blur();
      await expect(days).toHaveValue('0');
      await expect(page.getByText('Значение от 1 до 999')).toBeVisible();
      await days.fill('10');
      await expect(page.getByText('Значение от 1 до 999')).toBeHidden();
      await page.getByRole('textbox', { name: /Предупредить за/ }).fill('3');
      await page.getByRole('switch', { name: 'Проходить курс повторно' }).check({ force: true });
      await page.getByRole('textbox', { name: /Повторять каждые/ }).fill('365');
      await page.screenshot({ path: `${SHOTS}/course-settings.png`, fullPage: true });
      await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
      await expect(toast(page, 'Настройки курса успешно сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });
      await page.reload();
      await expect(page.getByRole('textbox', { name: /Срок, дней/ })).toHaveValue('10');
      await expect(page.getByRole('textbox', { name: /Предупредить за/ })).toHaveValue('3');
      await expect(page.getByRole('textbox', { name: /Повторять каждые/ })).toHaveValue('365');
      await expect(page.getByRole('radio', { name: 'С начала прохождения' })).toBeChecked();

      // ── the learner's home card ──
      const context = await browser.newContext({ baseURL: baseUrl(), locale: 'ru-RU', timezoneId: TIME_ZONE });
      try {
        const learner = await context.newPage();
        await learner.setViewportSize({ width: 1280, height: 900 });
        await signIn(learner, LEARNER, DEMO_PASSWORD);
        const response = await learner.request.get('/api/user/courses');
        const categories = ((await response.json()) as { result: { categories: HomeCategory[] } }).result.categories;
        const course = categories.flatMap((c) => c.items).find((c) => c.id === courseId);
        if (!course?.deadline) throw new Error('the course has no deadline for the learner');
        const now = new Date();
        const deadline = new Date(course.deadline);
        // 10 days from the learner's start, about 2 days ago in the demo
        expect(deadline.getTime() - now.getTime()).toBeGreaterThan(7 * DAY);
        expect(deadline.getTime() - now.getTime()).toBeLessThan(10 * DAY);
        const card = learner.locator(`a[href="${course.url}"]`);
        await expect(card.getByTestId('course-deadline')).toHaveText(expectedLeft(deadline, now));
        await expect(card.getByTestId('course-deadline')).toHaveText(/^Осталось [78] дней$/);
        await card.scrollIntoViewIfNeeded();
        await learner.screenshot({ path: `${SHOTS}/learner-home.png` });
      } finally {
        await context.close();
      }
    } finally {
      // Leave the demo course as it was for the other browser tests.
      if (testId !== null) await apiCall(page, 'DELETE', `/api/courses/tests/${testId}`);
      await apiCall(page, 'PUT', `/api/courses/${courseId}`, {
        has_deadline: before.has_deadline,
        deadline_type: before.deadline_type,
        deadline_value: before.deadline_value,
        deadline_unit: 'days',
        deadline_warning_days: before.deadline_warning_days,
        has_recurrence: before.has_recurrence,
        recurrence_value: before.recurrence_value,
        recurrence_unit: 'days',
        accessibility: before.accessibility,
      });
    }
  });
});
