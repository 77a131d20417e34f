import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';

/**
 * Editing in the constructor without surprises (issue 30): leaving a lesson or a test with unsaved
 * changes asks first, whichever way is taken; course settings that make no sense are refused beside
 * their field; the test page has its own publish switch; deleting the module of the open test leaves
 * the page; a refused course status puts the switch back; publish-all counts in proper Russian; the
 * breadcrumb names the page. Each test builds its own course through the API.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const AUTHOR = `author@${LOGIN_DOMAIN}`;
const STAMP = Date.now().toString(36);
const TOAST_WAIT = 16_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

interface Built {
  courseId: number;
  moduleId: number;
  lessons: number[];
  testId: number;
}

const TEST_SETTINGS = {
  passing_score: 50,
  has_timer: false,
  timer_seconds: 0,
  has_retake_interval: false,
  retake_interval_seconds: 0,
  has_attempts_limit: false,
  max_attempts: 1,
  has_question_bank: false,
  question_bank_size: 0,
  randomize_questions: false,
  randomize_answers: false,
  show_correct_answers: false,
};

/** A course of its own: one module with two lessons and a test with one question. */
async function buildCourse(page: Page, title: string): Promise<Built> {
  const created = (await apiCall(page, 'POST', '/api/courses', { name: title })) as {
    result: { item: { id: number } };
  };
  const courseId = created.result.item.id;
  const module = (await apiCall(page, 'POST', '/api/courses/modules', { name: 'Основы', course_id: courseId })) as {
    result: { item: { id: number } };
  };
  const moduleId = module.result.item.id;
  const lessons: number[] = [];
  for (const name of ['Знакомство', 'Скрипты продаж']) {
    const lesson = (await apiCall(page, 'POST', '/api/courses/lessons', { name, module_id: moduleId })) as {
      result: { item: { id: number } };
    };
    lessons.push(lesson.result.item.id);
  }
  const quiz = (await apiCall(page, 'POST', '/api/courses/tests', {
    ...TEST_SETTINGS,
    name: 'Итоговый тест',
    course_id: courseId,
    module_id: moduleId,
  })) as { result: { item: { id: number } } };
  const testId = quiz.result.item.id;
  const questions = [
    {
      id: 'q1',
      type: 'text',
      question_text: 'Что важнее всего на первой встрече?',
      sort_order: 0,
      answers: [
        { id: 'a1', answer_text: 'Выяснить потребности', is_correct: true },
        { id: 'a2', answer_text: 'Назвать цену', is_correct: false },
      ],
    },
  ];
  await apiCall(page, 'POST', `/api/admin/tests/${testId}/questions`, undefined, {
    questions: JSON.stringify(questions),
  });
  return { courseId, moduleId, lessons, testId };
}

const panel = (page: Page) => page.getByRole('navigation', { name: 'Структура курса' });
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Разделы курса' });
const leaveDialog = (page: Page) => page.getByRole('dialog', { name: 'Уйти со страницы?' });

async function shoot(page: Page, name: string) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))));
  await page.screenshot({ path: join(SCREENS, name) });
}

test.describe('constructor editing (issue 30)', () => {
  test('leaving a lesson with unsaved changes asks first, by the tree, the menu, the breadcrumb and back', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const built = await buildCourse(page, `Переговоры ${STAMP}`);
    const [first, second] = built.lessons as [number, number];
    const lessonUrl = new RegExp(`/management/constructor/${built.courseId}/${first}$`);

    // (arriving from the second lesson inside the app, so that the back button stays in the app)
    await page.goto(`/management/constructor/${built.courseId}/${second}`);
    await panel(page)
      .getByRole('link', { name: /Знакомство/ })
      .click();
    await expect(page).toHaveURL(lessonUrl);
    // the breadcrumb names the lesson
    await expect(crumbs(page).getByText('Знакомство', { exact: true })).toHaveAttribute('aria-current', 'page');
    const description = page.getByRole('textbox', { name: 'Описание страницы' });
    await description.fill('Вводная часть');

    // the course tree
    await panel(page)
      .getByRole('link', { name: /Скрипты продаж/ })
      .click();
    await expect(leaveDialog(page)).toBeVisible();
    await expect(leaveDialog(page).getByText('На странице есть несохраненные изменения.')).toBeVisible();
    await shoot(page, 'leave-confirmation-desktop.png');
    expect(await seriousViolations(page)).toEqual([]);
    await leaveDialog(page).getByRole('button', { name: 'Остаться' }).click();
    await expect(leaveDialog(page)).toBeHidden();
    await expect(page).toHaveURL(lessonUrl);
    await expect(description).toHaveValue('Вводная часть');

    // the main menu
    await page
      .getByRole('navigation', { name: 'Главное меню' })
      .getByRole('link', { name: 'Управление курсами' })
      .click();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Остаться' }).click();
    await expect(page).toHaveURL(lessonUrl);

    // the breadcrumb
    await crumbs(page).getByRole('link', { name: 'Настройка курса' }).click();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Остаться' }).click();
    await expect(page).toHaveURL(lessonUrl);

    // the browser's back button
    await page.goBack();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Остаться' }).click();
    await expect(page).toHaveURL(lessonUrl);
    await expect(description).toHaveValue('Вводная часть');

    // closing (or reloading) the tab gets the browser's own question; staying keeps the page
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    expect(page.isClosed()).toBe(false);
    await expect(description).toHaveValue('Вводная часть');

    // the phone
    await page.setViewportSize(PHONE);
    await crumbs(page).getByRole('link', { name: 'Конструктор' }).click();
    await expect(leaveDialog(page)).toBeVisible();
    await shoot(page, 'leave-confirmation-phone.png');

    // going on leaves the changes behind
    await leaveDialog(page).getByRole('button', { name: 'Уйти без сохранения' }).click();
    await expect(page).toHaveURL(lessonUrl); // 'Конструктор' opens the first lesson again
    await expect(page.getByRole('textbox', { name: 'Описание страницы' })).toHaveValue('');
    await page.setViewportSize(DESKTOP);

    // saved changes leave without a question
    await page.getByRole('textbox', { name: 'Описание страницы' }).fill('Вводная часть');
    await page.getByRole('region', { name: 'Урок', exact: true }).getByRole('button', { name: 'Сохранить' }).click();
    await expect(toast(page, 'Изменения успешно сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });
    await panel(page)
      .getByRole('link', { name: /Скрипты продаж/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/management/constructor/${built.courseId}/${second}$`));
    await expect(leaveDialog(page)).toBeHidden();
  });

  test('the test page: unsaved questions ask first, the publish switch, deleting its module', async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const built = await buildCourse(page, `Продажи ${STAMP}`);
    const testUrl = new RegExp(`/management/constructor/${built.courseId}/test/${built.testId}$`);

    await page.goto(`/management/constructor/${built.courseId}/test/${built.testId}`);
    await expect(crumbs(page).getByText('Итоговый тест', { exact: true })).toHaveAttribute('aria-current', 'page');
    const region = page.getByRole('region', { name: 'Тест', exact: true });

    // the publish switch
    const status = region.getByRole('switch', { name: 'Статус теста' });
    await expect(status).not.toBeChecked();
    await expect(region.getByText('Не опубликован')).toBeVisible();
    await status.click({ force: true });
    await expect(toast(page, 'Тест опубликован').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(region.getByText('Опубликован', { exact: true })).toBeVisible();
    await shoot(page, 'test-publish-switch-desktop.png');
    expect(await seriousViolations(page, '.mantine-Notifications-root')).toEqual([]);
    await page.reload();
    await expect(status).toBeChecked();
    await page.setViewportSize(PHONE);
    await region.scrollIntoViewIfNeeded();
    await shoot(page, 'test-publish-switch-phone.png');
    await page.setViewportSize(DESKTOP);
    await status.click({ force: true });
    await expect(toast(page, 'Тест снят с публикации').last()).toBeVisible({ timeout: TOAST_WAIT });
    await page.reload();
    await expect(status).not.toBeChecked();

    // an edited question asks before leaving
    const question = page.getByRole('region', { name: 'Вопрос 1', exact: true });
    await question.getByRole('textbox', { name: 'Текст вопроса 1' }).fill('Что важнее всего на встрече?');
    await panel(page)
      .getByRole('link', { name: /Знакомство/ })
      .click();
    await expect(leaveDialog(page)).toBeVisible();
    await leaveDialog(page).getByRole('button', { name: 'Остаться' }).click();
    await expect(page).toHaveURL(testUrl);
    await page.getByRole('button', { name: 'Сохранить тест' }).first().click();
    await expect(toast(page, 'Вопросы теста успешно сохранены!').last()).toBeVisible({ timeout: TOAST_WAIT });

    // deleting the module that holds the open test leaves the page for the course constructor
    await question.getByRole('textbox', { name: 'Текст вопроса 1' }).fill('Ещё одна правка');
    await panel(page).getByRole('button', { name: 'Действия с модулем «Основы»' }).click();
    await page.getByRole('menuitem', { name: 'Удалить модуль' }).click();
    await page.getByRole('dialog', { name: 'Удаление модуля' }).getByRole('button', { name: 'Удалить' }).click();
    await expect(toast(page, 'Модуль и его уроки успешно удалены').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page).toHaveURL(new RegExp(`/management/constructor/${built.courseId}$`));
    await expect(leaveDialog(page)).toBeHidden();
    await expect(crumbs(page).getByRole('link', { name: 'Конструктор' })).toHaveAttribute('aria-current', 'page');
  });

  test('course settings that make no sense are refused beside their field and nothing is sent', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const built = await buildCourse(page, `Охрана труда ${STAMP}`);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith(`/api/courses/${built.courseId}`)) puts.push(r.postData() ?? '');
    });

    await page.goto(`/management/constructor/${built.courseId}/settings`);
    await expect(crumbs(page).getByRole('link', { name: 'Настройка курса' })).toHaveAttribute('aria-current', 'page');
    await page.getByRole('switch', { name: 'Ограничить срок прохождения' }).check({ force: true });
    await page.getByRole('switch', { name: 'Проходить курс повторно' }).check({ force: true });
    const days = page.getByRole('textbox', { name: /Срок, дней/ });
    const warning = page.getByRole('textbox', { name: /Предупредить за/ });
    const recurrence = page.getByRole('textbox', { name: /Повторять каждые/ });
    await days.fill('10');
    await warning.fill('15');
    await recurrence.fill('7');
    await recurrence.blur();
    await expect(warning).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Предупреждение не может быть дольше срока прохождения')).toBeVisible();
    await expect(page.getByText('Период повторения не может быть короче срока прохождения')).toBeVisible();
    await warning.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-field-errors-desktop.png');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await warning.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-field-errors-phone.png');
    await page.setViewportSize(DESKTOP);
    await days.fill('0');
    await expect(page.getByText('Значение от 1 до 999')).toBeVisible();
    await expect(days).toHaveValue('0');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await expect(days).toBeFocused();
    await shoot(page, 'settings-field-zero.png');
    expect(puts).toEqual([]);

    await days.fill('10');
    await warning.fill('10');
    await recurrence.fill('30');
    await expect(page.getByText(/не может быть/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await expect(toast(page, 'Настройки курса успешно сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });
    expect(puts).toHaveLength(1);
    await page.reload();
    await expect(page.getByRole('textbox', { name: /Предупредить за/ })).toHaveValue('10');
    await expect(page.getByRole('textbox', { name: /Повторять каждые/ })).toHaveValue('30');
  });

  test('publish-all counts in Russian; a refused course status puts the switch back', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const built = await buildCourse(page, `Этикет ${STAMP}`);

    await page.goto(`/management/constructor/${built.courseId}`);
    await panel(page).getByRole('button', { name: 'Опубликовать все' }).click();
    await expect(toast(page, 'Опубликовано: 3 элемента').last()).toBeVisible({ timeout: TOAST_WAIT });

    // the course goes away elsewhere; the status change is refused and the switch goes back
    const status = page.getByRole('switch', { name: 'Статус курса' });
    await expect(status).not.toBeChecked();
    await apiCall(page, 'DELETE', `/api/admin/courses/${built.courseId}`);
    await status.click({ force: true });
    await expect(toast(page, 'Ошибка при изменении статуса курса: Курс не найден').last()).toBeVisible({
      timeout: TOAST_WAIT,
    });
    await expect(status).not.toBeChecked();
    await expect(page.getByText('Не опубликован', { exact: true }).first()).toBeVisible();
  });
});
