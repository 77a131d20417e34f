import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';
import {
  SHOTS,
  learner,
  learnerTestAnswer,
  makeTest as makeAdminTest,
  negotiationCourse,
  option,
  shot,
  type Made,
  type QuestionDef,
} from './testPages.js';

/**
 * Issue 30 on the test page: skipping is not losing (items 1), a passed test reads as passed (2), the
 * countdown runs to the server's deadline, catches up when the page comes back and stays in view on a
 * phone (3).
 */

test.use({ baseURL: process.env.E2E_BASE_URL });

const PHONE = { width: 390, height: 844 };

let courseId = 0;
let adminPage: Page;
const made: Made[] = [];

async function makeTest(name: string, settings: Record<string, unknown>, questions: QuestionDef[]): Promise<Made> {
  const made_ = await makeAdminTest(adminPage, courseId, name, settings, questions);
  made.push(made_);
  return made_;
}

const yesNo = (text: string, right: 'Да' | 'Нет' = 'Да'): QuestionDef => ({
  text,
  answers: [
    ['Да', right === 'Да'],
    ['Нет', right === 'Нет'],
  ],
});

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const adminContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  adminPage = await adminContext.newPage();
  await signIn(adminPage, ADMIN.email, ADMIN.password);
  courseId = await negotiationCourse(browser);
});

test.afterAll(async () => {
  for (const t of made) await apiCall(adminPage, 'DELETE', `/api/courses/tests/${t.id}`);
  await adminPage.context().close();
});

test('skipped questions come back, and finishing with unanswered ones asks first', async ({ browser }) => {
  test.setTimeout(90_000);
  const t = await makeTest('E2E: пропуск вопросов', { passing_score: 50 }, [
    yesNo('Первый вопрос'),
    yesNo('Второй вопрос'),
    yesNo('Третий вопрос'),
  ]);
  const page = await learner(browser);
  await page.goto(`/courses/${courseId}/test/${t.id}`);
  await page.getByRole('button', { name: 'Начать тест' }).click();
  const heading = (text: string) => page.getByRole('heading', { name: text });
  await expect(heading('Первый вопрос')).toBeVisible();

  // skip, skip, answer the last in the list: the attempt goes on, back at the first skipped question
  await page.getByRole('button', { name: 'Пропустить' }).click();
  await expect(heading('Второй вопрос')).toBeVisible();
  await page.getByRole('button', { name: 'Пропустить' }).click();
  await expect(heading('Третий вопрос')).toBeVisible();
  // while the answer saves, the button reads 'Сохранение...' (not covered by a loader)
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    '**/api/test-attempts/save-answers',
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  await option(page, 'Да').click();
  await page.getByRole('button', { name: 'Ответить' }).click();
  const saving = page.getByRole('button', { name: 'Сохранение...' });
  await expect(saving).toBeVisible();
  await expect(saving).toHaveAttribute('aria-disabled', 'true');
  await expect(saving).not.toHaveAttribute('data-loading');
  await shot(page, 'test-saving', false);
  release();
  await expect(heading('Первый вопрос')).toBeVisible();
  await expect(page.getByText('Отвечено: 1 из 3')).toBeVisible();
  expect((await learnerTestAnswer(page, courseId, t.id)).test.active_attempts).toHaveLength(1);

  // finishing now asks, saying how many questions are unanswered
  await page.getByRole('button', { name: 'Завершить тест' }).click();
  let dialog = page.getByRole('dialog', { name: 'Завершить тест?' });
  await expect(dialog.getByText('Вы не ответили на 2 вопроса.')).toBeVisible();
  await shot(page, 'test-finish-confirm', false);
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
  await dialog.getByRole('button', { name: 'Вернуться к вопросам' }).click();
  await expect(dialog).toBeHidden();
  await expect(heading('Первый вопрос')).toBeVisible();

  await option(page, 'Да').click();
  await page.getByRole('button', { name: 'Ответить' }).click();
  await expect(heading('Второй вопрос')).toBeVisible();

  // skipping the only question left asks too; on a phone
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Пропустить' }).click();
  dialog = page.getByRole('dialog', { name: 'Завершить тест?' });
  await expect(dialog.getByText('Вы не ответили на 1 вопрос.')).toBeVisible();
  await shot(page, 'test-finish-confirm-phone', false);
  await dialog.getByRole('button', { name: 'Завершить тест' }).click();

  await expect(page).toHaveURL(new RegExp(`/courses/${courseId}/test/${t.id}/\\d+$`));
  await expect(toast(page, 'Тест завершен!')).toBeVisible();
  await expect(page.getByText('2/3 правильных ответов')).toBeVisible();
  await page.context().close();
});

test('a passed test reads as passed, not blocked, when no attempt is left', async ({ browser }) => {
  const t = await makeTest('E2E: одна попытка', { passing_score: 50, has_attempts_limit: true, max_attempts: 1 }, [
    yesNo('Единственный вопрос'),
  ]);
  const page = await learner(browser);
  await page.goto(`/courses/${courseId}/test/${t.id}`);
  await page.getByRole('button', { name: 'Начать тест' }).click();
  await option(page, 'Да').click();
  await page.getByRole('button', { name: 'Ответить' }).click();
  await expect(page.getByText('Тест пройден')).toBeVisible();

  await page.goto(`/courses/${courseId}/test/${t.id}`);
  const passed = page.getByTestId('test-passed');
  await expect(passed.getByText('Тест пройден')).toBeVisible();
  await expect(passed.getByText('Результат: 100%')).toBeVisible();
  await expect(passed.getByText(/^Тест сдан \d\d\.\d\d\.\d{4} в \d\d:\d\d$/)).toBeVisible();
  await expect(page.getByText('Тест заблокирован')).toBeHidden();
  await expect(page.getByText('навсегда')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Начать тест' })).toBeHidden();
  await expect(page.getByTestId('attempt-history').getByText('Пройден', { exact: true })).toBeVisible();
  expect((await learnerTestAnswer(page, courseId, t.id)).test).toMatchObject({ is_blocked: true, blocked_until: null });
  await shot(page, 'test-intro-passed');
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
  await page.context().close();
});

test("the countdown stays in view on a phone and catches up with the server's deadline after the page slept", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const long = 'Клиент говорит, что у конкурента дешевле, и просит скидку. '.repeat(3);
  const t = await makeTest('E2E: таймер на телефоне', { passing_score: 50, has_timer: true, timer_seconds: 600 }, [
    {
      text: `${long}Что вы сделаете первым делом?`,
      answers: [
        ['Выясню, с каким предложением и по каким условиям клиент сравнивает наше', true],
        ['Сразу предложу максимальную скидку, чтобы не потерять клиента', false],
        ['Скажу, что цена не обсуждается, и перейду к следующему вопросу', false],
        ['Попрошу руководителя перезвонить клиенту завтра', false],
        ['Предложу рассрочку без выяснения потребностей', false],
        ['Отправлю клиенту прайс-лист ещё раз', false],
      ],
    },
    yesNo('Второй вопрос'),
  ]);
  const page = await learner(browser, PHONE);
  // The page's clock, so that its timers can be made to stand still as on a sleeping phone.
  await page.clock.install();
  await page.goto(`/courses/${courseId}/test/${t.id}`);
  await page.getByRole('button', { name: 'Начать тест' }).click();
  const timer = page.getByTestId('test-timer');
  await expect(timer).toHaveText(/^00:(10:00|09:[45]\d)$/);

  // scrolled to the options at the bottom, the countdown stays below the header
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  const box = await timer.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(64);
  expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
  await shot(page, 'test-timer-sticky-phone', false);

  // The phone sleeps: the page's timers and clock stand still while the server's time goes on.
  const shown = (text: string | null) => {
    const [h, m, s] = (text ?? '').split(':').map(Number);
    return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
  };
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  // waiting in real time is the point: the server's clock must move while the page's does not
  await page.waitForTimeout(6000);
  await page.clock.resume();
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  const { test: state, server_time } = await learnerTestAnswer(page, courseId, t.id);
  const askedAt = Date.now();
  const left = Date.parse(state.active_attempts[0]!.expires_at!) - Date.parse(server_time);
  // the seconds left by the server's clock when the countdown is read (this process's clock is not faked)
  const truth = () => (left - (Date.now() - askedAt)) / 1000;
  await expect.poll(async () => Math.abs(shown(await timer.textContent()) - truth())).toBeLessThanOrEqual(2);
  await page.context().close();
});
