import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ConstructorLesson, ConstructorModule } from '@lms/contract';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';
import { gradientPng } from './png.js';

/** At most five toasts show at once (Mantine's limit), 7 s each: a later one may wait for a place. */
const TOAST_WAIT = 16_000;

/**
 * The course constructor (docs/product.md §Constructor): an author builds a course with modules and a lesson of
 * every block type, orders it by arrows and by dragging, publishes everything, and finds it all
 * after a reload; a learner gets 'Доступ запрещен'.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const AUTHOR = `author@${LOGIN_DOMAIN}`;
const LEARNER = `learner@${LOGIN_DOMAIN}`;
const STAMP = Date.now().toString(36);
const VIDEO = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

// ── helpers ──

async function modules(page: Page, courseId: number): Promise<ConstructorModule[]> {
  const body = (await apiCall(page, 'GET', `/api/courses/${courseId}/modules`)) as {
    result: { items: ConstructorModule[] };
  };
  return body.result.items;
}

async function lesson(page: Page, courseId: number, lessonId: number): Promise<ConstructorLesson> {
  const body = (await apiCall(page, 'GET', `/api/courses/${courseId}/lessons/${lessonId}`)) as {
    result: { lesson: ConstructorLesson };
  };
  return body.result.lesson;
}

const lessonBox = (page: Page) => page.getByRole('region', { name: 'Урок', exact: true });
const lessonName = (page: Page) => lessonBox(page).getByRole('textbox', { name: 'Название урока' });
const panel = (page: Page) => page.getByRole('navigation', { name: 'Структура курса' });
const moduleBox = (page: Page, name: string) => panel(page).getByRole('group', { name, exact: true });

/** The module names in the left panel, in the order shown. */
async function shownModules(page: Page): Promise<string[]> {
  return panel(page)
    .getByTestId('constructor-module')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));
}

/** The item names of a module in the left panel, in the order shown. */
async function shownItems(page: Page, module: string): Promise<string[]> {
  return moduleBox(page, module).getByTestId('constructor-item').allInnerTexts();
}

async function createModule(page: Page, name: string) {
  await panel(page).getByRole('button', { name: 'Добавить модуль' }).click();
  const dialog = page.getByRole('dialog', { name: 'Создание нового модуля' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Создать модуль' }).click();
  await expect(dialog.getByText('Поле не может быть пустым')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Название модуля' }).fill(name);
  await dialog.getByRole('button', { name: 'Создать модуль' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Модуль успешно создан').last()).toBeVisible({ timeout: TOAST_WAIT });
  await expect(moduleBox(page, name)).toBeVisible();
}

async function createLesson(page: Page, courseId: number, module: string, name: string): Promise<number> {
  await moduleBox(page, module)
    .getByRole('button', { name: `Добавить урок в модуль «${module}»` })
    .click();
  const type = page.getByRole('dialog', { name: 'Выберите тип урока' });
  await expect(type.getByRole('radio', { name: /Обычное/ })).toBeChecked();
  await expect(type.getByRole('radio', { name: /Тест/ })).toBeEnabled();
  await type.getByRole('button', { name: 'Далее' }).click();
  const dialog = page.getByRole('dialog', { name: 'Создание нового урока' });
  const field = dialog.getByRole('textbox', { name: 'Название урока' });
  await expect(field).toHaveValue('Новый урок');
  await field.fill(name);
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/courses/lessons') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Создать урок' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const id = ((await response.json()) as { result: { item: { id: number } } }).result.item.id;
  await expect(page).toHaveURL(new RegExp(`/management/constructor/${courseId}/${id}$`));
  await expect(toast(page, 'Урок успешно создан').last()).toBeVisible({ timeout: TOAST_WAIT });
  await expect(dialog).toBeHidden();
  await expect(lessonName(page)).toHaveValue(name);
  return id;
}

/** Adds a block from the 'Добавить блок' menu; returns its card. */
async function addBlock(page: Page, label: string, testId: string): Promise<Locator> {
  const before = await page.getByTestId(testId).count();
  await page.getByRole('button', { name: 'Добавить блок' }).click();
  await page.getByRole('menuitem', { name: label, exact: true }).click();
  const card = page.getByTestId(testId).nth(before);
  await expect(card).toBeVisible();
  return card;
}

/** Drags with the mouse as a person does: press, a small move to start, then to the target, release. */
async function dragTo(page: Page, handle: Locator, target: Locator) {
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('nothing to drag');
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y - 10, { steps: 5 });
  await page.mouse.move(x, to.y + 4, { steps: 20 });
  await page.mouse.move(x, to.y + 2, { steps: 5 });
  await page.mouse.up();
}

test.describe('course constructor', () => {
  test('an author builds, orders, publishes and reloads a course', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    const title = `Конструктор ${STAMP}`;
    const created = (await apiCall(page, 'POST', '/api/courses', { name: title })) as {
      result: { item: { id: number } };
    };
    const courseId = created.result.item.id;

    await page.goto(`/management/constructor/${courseId}`);
    await expect(page.getByRole('link', { name: 'Конструктор' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Настройка курса' })).toHaveAttribute(
      'href',
      `/management/constructor/${courseId}/settings`,
    );
    await expect(panel(page).getByText('В курсе пока нет модулей')).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Статус курса' })).not.toBeChecked();
    await expect(page.getByText('Не опубликован', { exact: true })).toBeVisible();

    // the header: description within its limit, committed with Enter
    await page.getByRole('button', { name: /Описание курса/ }).click();
    const description = page.getByRole('textbox', { name: 'Описание курса' });
    await description.fill('Курс, собранный в браузере');
    await expect(page.getByText('26/255 символов')).toBeVisible();
    await description.press('Enter');
    await expect(toast(page, 'Данные сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });

    // the course image (a real PNG) through the header's change button
    const courseImage = page.waitForResponse((r) => r.url().endsWith(`/api/courses/${courseId}/image`));
    await page
      .getByRole('region', { name: 'Курс', exact: true })
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: gradientPng(214, 214) });
    expect((await courseImage).status()).toBe(200);
    await expect(toast(page, 'Изображение успешно загружено').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page.getByRole('img', { name: 'Изображение курса' })).toHaveAttribute('src', /^\/storage\/.+/);

    await createModule(page, 'Модуль 1');
    await createModule(page, 'Модуль 2');
    expect(await shownModules(page)).toEqual(['Модуль 1', 'Модуль 2']);

    const lessonA = await createLesson(page, courseId, 'Модуль 1', 'Урок A');
    const lessonB = await createLesson(page, courseId, 'Модуль 1', 'Урок B');
    expect(await shownItems(page, 'Модуль 1')).toEqual(['Урок A', 'Урок B']);

    // ── one block of each type in lesson B ──
    const save = lessonBox(page).getByRole('button', { name: 'Сохранить' });
    await expect(save).toBeDisabled();
    await page.getByRole('textbox', { name: 'Заголовок страницы' }).fill('Всё о конструкторе');
    await page.getByRole('textbox', { name: 'Описание страницы' }).fill('Блоки всех видов');
    await expect(save).toBeEnabled();

    const text = await addBlock(page, 'Текст', 'block-text');
    const editor = text.getByRole('textbox', { name: 'Текст' });
    await editor.click();
    await page.keyboard.type('Привет, мир! Это текст урока.');
    await expect(editor).toContainText('Привет, мир!');

    const video = await addBlock(page, 'Видео', 'block-video');
    await video.getByRole('textbox', { name: 'Ссылка на видео' }).fill('https://example.com/clip');
    await expect(video.locator('iframe')).toHaveCount(0);
    await video.getByRole('textbox', { name: 'Ссылка на видео' }).fill(VIDEO);
    await expect(video.locator('iframe')).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');

    const image = await addBlock(page, 'Картинка', 'block-image');
    const imageUpload = page.waitForResponse((r) => r.url().endsWith('/api/upload-image'));
    await image.getByLabel('Выбрать изображение', { exact: true }).setInputFiles({
      name: 'diagram.png',
      mimeType: 'image/png',
      buffer: gradientPng(320, 180),
    });
    expect((await imageUpload).status()).toBe(200);
    await expect(image.locator('img')).toHaveAttribute('src', /^\/storage\/.+/);
    await image.getByRole('textbox', { name: 'Описание изображения' }).fill('Схема курса');

    const file = await addBlock(page, 'Файл', 'block-file');
    const fileUpload = page.waitForResponse((r) => r.url().endsWith('/api/upload-file'));
    await file.getByLabel('Выбрать файл', { exact: true }).setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Памятка к уроку\n'.repeat(2000)),
    });
    expect((await fileUpload).status()).toBe(200);
    await expect(file.getByRole('link', { name: 'notes.txt' })).toBeVisible();

    const button = await addBlock(page, 'Кнопка', 'block-button');
    const label = button.getByRole('textbox', { name: 'Текст кнопки' });
    await expect(label).toHaveValue('Кнопка');
    await label.fill('Открыть сайт');
    await button.getByRole('textbox', { name: 'Ссылка' }).fill('https://example.com/');

    await page.screenshot({ path: join(SCREENS, 'constructor-editing-1280.png'), fullPage: true });

    const saved = page.waitForResponse((r) => r.url().endsWith(`/lessons/${lessonB}/contents`));
    await save.click();
    expect((await saved).status()).toBe(200);
    await expect(toast(page, 'Изменения успешно сохранены').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(save).toBeDisabled();
    // the blocks closed before saving
    await expect(page.getByRole('button', { name: 'Готово' })).toHaveCount(0);

    // ── the name line saves itself 3000 ms after the last keystroke ──
    const renamed = page.waitForResponse(
      (r) => r.url().endsWith(`/lessons/${lessonB}`) && r.request().method() === 'PUT',
      { timeout: 15_000 },
    );
    await lessonName(page).fill('Урок B+');
    expect((await renamed).status()).toBe(200);
    await expect(toast(page, 'Название урока успешно сохранено').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(moduleBox(page, 'Модуль 1').getByRole('link', { name: /Урок B\+/ })).toBeVisible();

    // ── order by arrows ──
    await moduleBox(page, 'Модуль 1').getByRole('button', { name: 'Переместить «Урок B+» выше' }).click();
    await expect(toast(page, 'Порядок элементов успешно обновлен').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect.poll(() => shownItems(page, 'Модуль 1')).toEqual(['Урок B+', 'Урок A']);
    await expect(
      moduleBox(page, 'Модуль 1').getByRole('button', { name: 'Переместить «Урок B+» выше' }),
    ).toBeDisabled();
    await expect(moduleBox(page, 'Модуль 1').getByRole('button', { name: 'Переместить «Урок A» ниже' })).toBeDisabled();

    // with no lesson chosen, the constructor opens the first lesson of the first module
    await page.goto(`/management/constructor/${courseId}`);
    await expect(page).toHaveURL(new RegExp(`/management/constructor/${courseId}/${lessonB}$`));
    await expect(lessonName(page)).toHaveValue('Урок B+');

    // ── order by dragging: Модуль 2 above Модуль 1 ──
    await dragTo(
      page,
      panel(page).getByRole('button', { name: 'Перетащить модуль «Модуль 2»' }),
      moduleBox(page, 'Модуль 1'),
    );
    await expect(toast(page, 'Порядок модулей успешно обновлен').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect.poll(() => shownModules(page)).toEqual(['Модуль 2', 'Модуль 1']);
    await expect(panel(page).getByRole('button', { name: 'Переместить «Модуль 2» выше' })).toBeDisabled();

    // ── search filters and opens the matching module ──
    await panel(page).getByRole('textbox', { name: 'Поиск по курсу' }).fill('урок a');
    await expect(panel(page).getByRole('link', { name: /Урок A/ })).toBeVisible();
    await expect(panel(page).getByRole('link', { name: /Урок B\+/ })).toHaveCount(0);
    await expect(moduleBox(page, 'Модуль 2')).toHaveCount(0);
    await panel(page).getByRole('button', { name: 'Очистить поиск' }).click();

    // ── publish all ──
    await panel(page).getByRole('button', { name: 'Опубликовать все' }).click();
    await expect(toast(page, 'Опубликовано: 2 элемента').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page.getByRole('switch', { name: 'Статус урока' })).toBeChecked();
    await panel(page).getByRole('button', { name: 'Опубликовать все' }).click();
    await expect(toast(page, 'Все уроки и тесты уже опубликованы').last()).toBeVisible({ timeout: TOAST_WAIT });

    // ── the course itself ──
    await page.getByRole('switch', { name: 'Статус курса' }).check();
    await expect(toast(page, 'Статус курса успешно изменен').last()).toBeVisible({ timeout: TOAST_WAIT });

    // ── after a reload, everything is there ──
    await page.reload();
    await expect(lessonName(page)).toHaveValue('Урок B+');
    expect(await shownModules(page)).toEqual(['Модуль 2', 'Модуль 1']);
    expect(await shownItems(page, 'Модуль 1')).toEqual(['Урок B+', 'Урок A']);
    await expect(page.getByRole('switch', { name: 'Статус курса' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Статус урока' })).toBeChecked();
    await expect(page.getByText('Курс, собранный в браузере')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Заголовок страницы' })).toHaveValue('Всё о конструкторе');
    await expect(page.getByRole('textbox', { name: 'Описание страницы' })).toHaveValue('Блоки всех видов');
    await expect(page.getByTestId('block-text')).toContainText('Привет, мир! Это текст урока.');
    await expect(page.getByTestId('block-video').locator('iframe')).toHaveAttribute(
      'src',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
    );
    const picture = page.getByTestId('block-image').locator('img');
    await expect(picture).toHaveAttribute('alt', 'Схема курса');
    await expect
      .poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(320);
    await expect(page.getByTestId('block-file').getByRole('link', { name: 'notes.txt' })).toBeVisible();
    await expect(page.getByTestId('block-button').getByRole('link', { name: 'Открыть сайт' })).toHaveAttribute(
      'href',
      'https://example.com/',
    );

    const stored = await lesson(page, courseId, lessonB);
    expect(stored.is_published).toBe(true);
    expect(stored.contents.map((b) => b.type)).toEqual([
      'title',
      'description',
      'text',
      'video',
      'image',
      'file',
      'button',
    ]);
    const all = await modules(page, courseId);
    expect(all.map((m) => [m.name, m.sort_order])).toEqual([
      ['Модуль 2', 0],
      ['Модуль 1', 1],
    ]);
    expect(all[1]?.is_published).toBe(true);
    expect(all[1]?.lessons.find((l) => l.id === lessonA)?.is_published).toBe(true);

    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENS, 'constructor-lesson-1280.png') });
    await page.getByTestId('block-image').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS, 'constructor-blocks-1280.png') });
    await page.getByRole('navigation', { name: 'Структура курса' }).scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENS, 'constructor-lesson-390.png'), fullPage: true });
    await page.getByRole('link', { name: 'Конструктор' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS, 'constructor-top-390.png') });
    const textBlock = page.getByTestId('block-text');
    await textBlock.getByRole('button', { name: 'Редактировать' }).click();
    await expect(textBlock.getByRole('textbox', { name: 'Текст' })).toBeVisible();
    await textBlock.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS, 'constructor-text-390.png') });
  });

  test('renames and deletes a module, deletes a block, a lesson and the course after confirmations', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, AUTHOR, DEMO_PASSWORD);
    type Item = { result: { item: { id: number } } };
    const course = ((await apiCall(page, 'POST', '/api/courses', { name: `Удаления ${STAMP}` })) as Item).result.item
      .id;
    const kept = (
      (await apiCall(page, 'POST', '/api/courses/modules', { name: 'Основной', course_id: course })) as Item
    ).result.item.id;
    await apiCall(page, 'POST', '/api/courses/modules', { name: 'Временный', course_id: course });
    const lessonId = (
      (await apiCall(page, 'POST', '/api/courses/lessons', { name: 'Первый', module_id: kept })) as Item
    ).result.item.id;
    await apiCall(page, 'PUT', `/api/courses/${course}/lessons/${lessonId}/contents`, {
      contents: [
        { id: 'tmp-1', type: 'button', content: [{ title: 'Кнопка', url: '' }], sort_order: 0 },
        { id: 'tmp-2', type: 'video', content: { url: VIDEO }, sort_order: 1 },
      ],
    });

    await page.goto(`/management/constructor/${course}`);
    await expect(page).toHaveURL(new RegExp(`/management/constructor/${course}/${lessonId}$`));

    // a saved block goes at once, after its confirmation; a later save keeps the rest
    await page.getByTestId('block-button').getByRole('button', { name: 'Удалить блок' }).click();
    const confirmBlock = page.getByRole('dialog', { name: 'Удаление блока' });
    await confirmBlock.getByRole('button', { name: 'Отмена' }).click();
    await expect(page.getByTestId('block-button')).toHaveCount(1);
    await page.getByTestId('block-button').getByRole('button', { name: 'Удалить блок' }).click();
    await confirmBlock.getByRole('button', { name: 'Удалить' }).click();
    await expect(toast(page, 'Блок успешно удален').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page.getByTestId('block-button')).toHaveCount(0);
    expect((await lesson(page, course, lessonId)).contents.map((b) => b.type)).toEqual(['video']);

    // inline rename: an empty name reverts, Escape cancels, Enter saves
    const rename = async (value: string, key: 'Enter' | 'Escape') => {
      await panel(page)
        .getByRole('button', { name: /Действия с модулем «Основн/ })
        .click();
      await page.getByRole('menuitem', { name: 'Переименовать' }).click();
      const field = panel(page).getByRole('textbox', { name: 'Название модуля' });
      await field.fill(value);
      await field.press(key);
    };
    await rename('   ', 'Enter');
    await expect(moduleBox(page, 'Основной')).toBeVisible();
    await rename('Не сохранять', 'Escape');
    await expect(moduleBox(page, 'Основной')).toBeVisible();
    await rename('Основной модуль', 'Enter');
    await expect(toast(page, 'Название модуля успешно обновлено').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(moduleBox(page, 'Основной модуль')).toBeVisible();

    await panel(page).getByRole('button', { name: 'Действия с модулем «Временный»' }).click();
    await page.getByRole('menuitem', { name: 'Удалить модуль' }).click();
    await page.getByRole('dialog', { name: 'Удаление модуля' }).getByRole('button', { name: 'Удалить' }).click();
    await expect(toast(page, 'Модуль и его уроки успешно удалены').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(moduleBox(page, 'Временный')).toHaveCount(0);

    await lessonBox(page).getByRole('button', { name: 'Удалить урок' }).click();
    await page.getByRole('dialog', { name: 'Удаление урока' }).getByRole('button', { name: 'Удалить' }).click();
    await expect(toast(page, 'Урок успешно удален').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page).toHaveURL(/\/management$/);

    await page.goto(`/management/constructor/${course}`);
    await expect(moduleBox(page, 'Основной модуль').getByText('В модуле пока нет уроков')).toBeVisible();
    await page.getByRole('button', { name: 'Удалить курс' }).click();
    await page.getByRole('dialog', { name: 'Удаление курса' }).getByRole('button', { name: 'Удалить' }).click();
    await expect(toast(page, 'Курс успешно удален').last()).toBeVisible({ timeout: TOAST_WAIT });
    await expect(page).toHaveURL(/\/management$/);
    const gone = await page.request.get(`/api/courses/${course}`);
    expect(gone.status()).toBe(404);
  });

  test('a learner opening a constructor address sees «Доступ запрещен»', async ({ page }) => {
    await signIn(page, LEARNER, DEMO_PASSWORD);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/courses\/\d+/.test(r.url())) calls.push(r.url());
    });
    await page.goto('/management/constructor/1');
    await expect(page.getByRole('heading', { name: 'Доступ запрещен' })).toBeVisible();
    await page.goto('/management/constructor/1/1');
    await expect(page.getByRole('heading', { name: 'Доступ запрещен' })).toBeVisible();
    expect(calls).toEqual([]);
  });
});
