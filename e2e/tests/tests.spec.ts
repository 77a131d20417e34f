import { mkdirSync } from 'node:fs';
import type { LearnerTest } from '@lms/contract';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';
import {
  SHOTS,
  check,
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
 * Test introduction, taking, result and answers review (docs/product.md §Test taking) for the demo learner.
 * The tests are made through the API by the administrator in the learner's course 'Эффективные
 * переговоры', with known answers and short timers, and removed at the end.
 */

test.use({ baseURL: process.env.E2E_BASE_URL });

let courseId = 0;
let adminPage: Page;
const made: Made[] = [];

async function makeTest(name: string, settings: Record<string, unknown>, questions: QuestionDef[]): Promise<Made> {
  const test = await makeAdminTest(adminPage, courseId, name, settings, questions);
  made.push(test);
  return test;
}

async function learnerTest(page: Page, testId: number): Promise<LearnerTest> {
  return (await learnerTestAnswer(page, courseId, testId)).test;
}

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

test('a learner passes a timed test, reloads mid-way and continues, sees the result and reviews the answers', async ({
  browser,
}) => {
  // a long flow (the answers, a reload mid-way, the result, the review): room for a busy machine
  test.setTimeout(90_000);
  const t = await makeTest(
    'E2E: тест с таймером',
    { passing_score: 60, has_timer: true, timer_seconds: 300, show_correct_answers: true },
    [
      {
        text: 'Что такое точка ухода?',
        answers: [
          ['Условие, при котором вы прекращаете переговоры', true],
          ['Время окончания встречи', false],
        ],
      },
      {
        text: 'Какие вопросы помогают выяснить потребности?',
        answers: [
          ['Открытые', true],
          ['Уточняющие', true],
          ['Риторические', false],
        ],
      },
      {
        text: 'Что делать при возражении о цене?',
        answers: [
          ['Сразу дать скидку', false],
          ['Выяснить, с чем сравнивает клиент', true],
        ],
      },
    ],
  );
  const page = await learner(browser);
  await page.goto(`/courses/${courseId}/test/${t.id}`);

  // introduction
  await expect(page.getByRole('heading', { level: 1, name: t.name })).toBeVisible();
  const intro = page.getByTestId('test-intro');
  await expect(intro.getByText('3 вопроса')).toBeVisible();
  await expect(intro.getByText('5 минут')).toBeVisible();
  await expect(intro.getByText('60 процентов')).toBeVisible();
  await expect(intro.getByText('Максимум попыток')).toBeHidden();
  await shot(page, 'test-intro');
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);

  // start: one question at a time, the countdown from 05:00
  await page.getByRole('button', { name: 'Начать тест' }).click();
  await expect(toast(page, 'Тест начат!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Что такое точка ухода?' })).toBeVisible();
  await expect(page.getByText('Один верный ответ')).toBeVisible();
  await expect(page.getByTestId('test-timer')).toHaveText(/^00:0[45]:\d\d$/);
  const answer = page.getByRole('button', { name: 'Ответить' });
  await expect(answer).toBeDisabled();
  await option(page, 'Время окончания встречи').click();
  await option(page, 'Условие, при котором вы прекращаете переговоры').click();
  await expect(option(page, 'Время окончания встречи')).not.toBeChecked();
  await shot(page, 'test-taking');
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'test-taking-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  await answer.click();
  await expect(page.getByRole('heading', { name: 'Какие вопросы помогают выяснить потребности?' })).toBeVisible();

  // a reload in the middle continues the same attempt at the first unanswered question
  const before = await learnerTest(page, t.id);
  expect(before.active_attempts).toHaveLength(1);
  await page.reload();
  await expect(toast(page, 'Продолжаем тест!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Какие вопросы помогают выяснить потребности?' })).toBeVisible();
  expect((await learnerTest(page, t.id)).active_attempts[0]?.id).toBe(before.active_attempts[0]?.id);
  await expect(page.getByText('Несколько верных ответов')).toBeVisible();
  await check(page, 'Открытые').click();
  await check(page, 'Риторические').click();
  await check(page, 'Риторические').click();
  await check(page, 'Уточняющие').click();
  await page.getByRole('button', { name: 'Ответить' }).click();

  // the first question says it is answered
  await page.getByRole('button', { name: 'Вопрос 1' }).click();
  await expect(page.getByText('Вопрос уже отвечен')).toBeVisible();
  await page.getByRole('button', { name: 'Вопрос 3' }).click();
  await option(page, 'Выяснить, с чем сравнивает клиент').click();
  await page.getByRole('button', { name: 'Ответить' }).click();

  // the last answer finishes the attempt: the result
  await expect(page).toHaveURL(new RegExp(`/courses/${courseId}/test/${t.id}/\\d+$`));
  await expect(toast(page, 'Тест завершен!')).toBeVisible();
  await expect(page.getByText('Тест пройден')).toBeVisible();
  await expect(page.getByTestId('result-score')).toHaveText('100%');
  await expect(page.getByText('3/3 правильных ответов')).toBeVisible();
  await expect(page.getByText(/^Тест сдан \d\d\.\d\d\.\d{4} в \d\d:\d\d$/)).toBeVisible();
  await expect(page.getByText('Вы справились с тестом, можно переходить к следующей лекции')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Следующее занятие' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await shot(page, 'test-result-passed');
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);

  // the answers
  await page.getByRole('link', { name: 'Посмотреть ответы' }).click();
  await expect(page).toHaveURL(new RegExp(`/courses/${courseId}/test/${t.id}/\\d+/result$`));
  await expect(page.getByRole('heading', { name: 'Что такое точка ухода?' })).toBeVisible();
  await expect(page.getByText('Вопрос 1 из 3')).toBeVisible();
  await expect(page.getByText('Верный ответ', { exact: true })).toBeVisible();
  await shot(page, 'answers-review');
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
  await page.getByRole('button', { name: 'Вперед' }).click();
  await expect(page.getByRole('heading', { name: 'Какие вопросы помогают выяснить потребности?' })).toBeVisible();
  await expect(page.getByText('Верный ответ', { exact: true })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Назад' })).toHaveAttribute('href', `/courses/${courseId}`);
  await page.context().close();

  // the author sees the figures of the finished attempt on the constructor's test page (issue 16)
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await adminPage.goto(`/management/constructor/${courseId}/test/${t.id}`);
  await expect(adminPage.getByTestId('test-statistics')).toHaveText('Статистика по 1 завершённой попытке');
  const figures = adminPage.getByTestId('question-statistics');
  await expect(figures).toHaveCount(3);
  for (const n of [1, 2, 3]) {
    const line = adminPage.getByRole('group', { name: `Статистика вопроса ${n}` });
    await expect(line.getByText('Ответили: 1', { exact: true })).toBeVisible();
    await expect(line.getByText('Верно: 100%', { exact: true })).toBeVisible();
    await expect(line.getByText(/^Среднее время ответа: (\d+ с|\d+ мин( \d+ с)?)$/)).toBeVisible();
    await expect(line.getByText(/Чаще всего ошибочно/)).toBeHidden();
  }
  await expect(adminPage.getByRole('button', { name: /Удалённые вопросы/ })).toBeHidden();
  await adminPage.waitForLoadState('networkidle');
  await shot(adminPage, 'test-statistics');
  expect(await seriousViolations(adminPage)).toEqual([]);
});

test("a learner fails a test with an attempt limit until it is blocked 'навсегда'", async ({ browser }) => {
  const t = await makeTest('E2E: две попытки', { passing_score: 100, has_attempts_limit: true, max_attempts: 2 }, [
    {
      text: 'Когда лучше назвать цену?',
      answers: [
        ['После выявления ценности для клиента', true],
        ['В первой фразе разговора', false],
      ],
    },
  ]);
  const page = await learner(browser);
  await page.goto(`/courses/${courseId}/test/${t.id}`);
  await expect(page.getByTestId('test-intro').getByText('Максимум попыток')).toBeVisible();

  for (const n of [1, 2]) {
    await page.getByRole('button', { name: 'Начать тест' }).click();
    await expect(toast(page, 'Тест начат!').first()).toBeVisible();
    await option(page, 'В первой фразе разговора').click();
    await page.getByRole('button', { name: 'Ответить' }).click();
    await expect(page.getByText('Тест не пройден')).toBeVisible();
    await expect(page.getByTestId('result-score')).toHaveText('0%');
    await expect(page.getByText('Иногда сложно усвоить информацию с первого раза.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Следующее занятие' })).toBeHidden();
    if (n === 1) {
      await expect(page.getByText('Попытка 1 из 2')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await shot(page, 'test-result-failed');
    } else {
      // the limit is reached: no 'Попытка N из M' on a blocked test
      await expect(page.getByText(/^Попытка \d из 2$/)).toBeHidden();
    }
    await page.getByRole('link', { name: 'Вернуться к тесту' }).click();
    await expect(page.getByTestId('attempt-history').getByText('Не пройден')).toHaveCount(n);
  }

  const blocked = page.getByTestId('test-blocked');
  await expect(blocked.getByText('Тест заблокирован')).toBeVisible();
  await expect(blocked.getByText('навсегда')).toBeVisible();
  await expect(blocked.getByText('Вы исчерпали все доступные попытки.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Начать тест' })).toBeHidden();
  await shot(page, 'test-blocked');
  const state = await learnerTest(page, t.id);
  expect(state.is_blocked).toBe(true);
  expect(state.blocked_until).toBeNull();
  await page.context().close();
});

test('the timer runs out: the attempt is finished and the learner is back on the course page', async ({ browser }) => {
  test.setTimeout(60_000);
  const SECONDS = 4;
  const t = await makeTest('E2E: короткий таймер', { passing_score: 50, has_timer: true, timer_seconds: SECONDS }, [
    {
      text: 'Вопрос без ответа',
      answers: [
        ['Да', true],
        ['Нет', false],
      ],
    },
    {
      text: 'Второй вопрос',
      answers: [
        ['Да', true],
        ['Нет', false],
      ],
    },
  ]);
  const page = await learner(browser);
  await page.goto(`/courses/${courseId}/test/${t.id}`);
  await page.getByRole('button', { name: 'Начать тест' }).click();
  await expect(page.getByRole('heading', { name: 'Вопрос без ответа' })).toBeVisible();
  await expect(page.getByTestId('test-timer')).toHaveText(/^00:00:0[1-4]$/);

  // the time runs out (waiting for the real timer is the point here)
  await expect(page.getByText('Время теста истекло!').first()).toBeVisible({ timeout: (SECONDS + 3) * 1000 });
  await expect(toast(page, 'Время теста истекло! Попытка завершена.')).toBeVisible();
  await shot(page, 'test-time-up');
  await expect(page).toHaveURL(new RegExp(`/courses/${courseId}$`), { timeout: 4000 });

  const state = await learnerTest(page, t.id);
  expect(state.active_attempts).toHaveLength(0);
  expect(state.attempts).toHaveLength(1);
  expect(state.attempts[0]?.is_passed).toBe(false);
  await page.context().close();
});
