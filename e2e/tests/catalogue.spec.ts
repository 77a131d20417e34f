import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueCategory } from '@lms/contract';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, ROOT } from '../server.js';
import { signIn, toast } from './helpers.js';

/** The admin course catalogue (docs/product.md §Catalogue): creating, inline renaming and reordering categories. */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');

test.use({ baseURL: process.env.E2E_BASE_URL });

test.beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

async function catalogue(page: Page): Promise<CatalogueCategory[]> {
  const response = await page.request.get('/api/courses');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { items: CatalogueCategory[] } }).result.items;
}

/** The category sections' names in the order shown. */
async function shownOrder(page: Page): Promise<string[]> {
  const sections = page.getByTestId('catalogue-category');
  await expect(sections.first()).toBeVisible();
  return sections.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
}

async function openCatalogue(page: Page) {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/management');
  await expect(page.getByRole('button', { name: 'Настроить каталог' })).toBeEnabled();
}

test.describe('catalogue', () => {
  test('an admin creates a category and a course in it and lands in the constructor', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openCatalogue(page);
    const category = `Категория ${Date.now()}`;
    const courseName = `Курс ${Date.now()}`;

    await page.getByRole('button', { name: 'Создать категорию' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новая категория' });
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(dialog.getByText('Поле не может быть пустым')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Название категории' }).fill(category);
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(toast(page, 'Категория успешно создана')).toBeVisible();
    await expect(dialog).toBeHidden();
    const section = page.getByRole('region', { name: category, exact: true });
    await expect(section).toBeVisible();

    // a duplicate name is refused by the server with 'Введите другое название'
    await page.getByRole('button', { name: 'Создать категорию' }).click();
    await dialog.getByRole('textbox', { name: 'Название категории' }).fill(category);
    await dialog.getByRole('button', { name: 'Создать' }).click();
    await expect(dialog.getByText('Введите другое название')).toBeVisible();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await expect(dialog).toBeHidden();

    await page.screenshot({ path: join(SCREENS, 'catalogue.png'), fullPage: true });

    await section.getByRole('button', { name: `Создать курс в категории «${category}»` }).click();
    const courseDialog = page.getByRole('dialog', { name: 'Новый курс' });
    await courseDialog.getByRole('textbox', { name: 'Название курса' }).fill(courseName);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/courses') && r.request().method() === 'POST');
    await courseDialog.getByRole('button', { name: 'Создать' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    const id = ((await response.json()) as { result: { item: { id: number } } }).result.item.id;
    await expect(page).toHaveURL(new RegExp(`/management/constructor/${id}$`));
    await expect(toast(page, 'Курс успешно создан')).toBeVisible();

    const saved = (await catalogue(page)).find((c) => c.name === category);
    expect(saved?.items.map((c) => [c.id, c.name, c.is_published])).toEqual([[id, courseName, false]]);

    await page.goto('/management');
    const card = page
      .getByRole('region', { name: category, exact: true })
      .locator(`a[href="/management/constructor/${id}"]`);
    await expect(card).toContainText(courseName);
    await expect(card).toContainText('Не опубликован');
  });

  test('renames a category inline: Escape cancels, Enter saves, and it persists', async ({ page }) => {
    await openCatalogue(page);
    const name = `Переименовать ${Date.now()}`;
    await page.getByRole('button', { name: 'Создать категорию' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Название категории' }).fill(name);
    await page.getByRole('dialog').getByRole('button', { name: 'Создать' }).click();
    await expect(toast(page, 'Категория успешно создана')).toBeVisible();

    const section = page.getByRole('region', { name, exact: true });
    await section.getByRole('button', { name, exact: true }).click();
    const input = section.getByRole('textbox', { name: 'Название категории' });
    await expect(input).toBeFocused();
    await input.fill('Не сохранять');
    await input.press('Escape');
    await expect(section.getByRole('button', { name, exact: true })).toBeVisible();

    const renamed = `${name} (новое)`;
    await section.getByRole('button', { name, exact: true }).click();
    await input.fill(renamed);
    const put = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().includes('/api/courses/categories/'),
    );
    await input.press('Enter');
    expect((await put).status()).toBe(200);
    await expect(page.getByRole('button', { name: renamed, exact: true })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('region', { name: renamed, exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name, exact: true })).toHaveCount(0);
    expect((await catalogue(page)).some((c) => c.name === renamed)).toBe(true);
  });

  test('reorders categories in edit mode; after a reload the order persists', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openCatalogue(page);
    const before = await shownOrder(page);
    const real = before.filter((name) => name !== 'Без категории');
    expect(real.length).toBeGreaterThanOrEqual(2);
    const last = real[real.length - 1]!;

    await page.getByRole('button', { name: 'Настроить каталог' }).click();
    await expect(page.getByRole('button', { name: 'Создать курс', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Сохранить изменения' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Переместить «${real[0]}» выше` })).toBeDisabled();
    await expect(page.getByRole('button', { name: `Переместить «${last}» ниже` })).toBeDisabled();
    if (before.includes('Без категории')) {
      const loose = page.getByRole('region', { name: 'Без категории', exact: true });
      await expect(loose.getByRole('button', { name: /Переместить/ })).toHaveCount(0);
    }

    // the last category goes to the top
    for (let i = 0; i < real.length - 1; i++) {
      await page.getByRole('button', { name: `Переместить «${last}» выше` }).click();
    }
    const expected = [last, ...real.slice(0, -1)];
    expect((await shownOrder(page)).filter((n) => n !== 'Без категории')).toEqual(expected);
    await page.mouse.move(0, 0);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENS, 'catalogue-edit.png'), fullPage: true });

    const saved = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/courses/categories/update'),
    );
    await page.getByRole('button', { name: 'Сохранить изменения' }).click();
    const body = (await saved).postDataJSON() as { categories: { id: number; name: string; sort_order: number }[] };
    expect(body.categories.map((c) => c.name)).toEqual(expected);
    expect(body.categories.map((c) => c.sort_order)).toEqual(expected.map((_, i) => i));
    expect(body.categories.some((c) => c.id === -1)).toBe(false);
    await expect(toast(page, 'Изменения успешно сохранены')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Сохранить изменения' })).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('button', { name: 'Настроить каталог' })).toBeEnabled();
    expect((await shownOrder(page)).filter((n) => n !== 'Без категории')).toEqual(expected);
    if (before.includes('Без категории')) expect((await shownOrder(page)).at(-1)).toBe('Без категории');
  });

  test('a learner sees "Доступ запрещен"', async ({ page }) => {
    await signIn(page, 'learner@example.com', DEMO_PASSWORD);
    await page.goto('/management');
    await expect(page.getByRole('heading', { name: 'Доступ запрещен' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Создать курс' })).toHaveCount(0);
  });

  test('holds at a 390 px phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openCatalogue(page);
    await expect(page.getByTestId('catalogue-category').first()).toBeVisible();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENS, 'catalogue-mobile.png') });
    await page.getByRole('button', { name: 'Настроить каталог' }).click();
    await expect(page.getByRole('button', { name: 'Сохранить изменения' })).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'catalogue-mobile-edit.png') });
    await page.getByRole('button', { name: 'Настроить каталог' }).click();
    await expect(page.getByRole('button', { name: 'Сохранить изменения' })).toHaveCount(0);
  });
});
