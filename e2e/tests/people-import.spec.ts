import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, baseUrl, seriousViolations, signIn, toast } from './helpers.js';

/**
 * Issue 32: an admin imports employees from a spreadsheet under Настройка школы → Сотрудники →
 * 'Импорт': the template, the upload with its progress, the dry run (counts, new departments, rows
 * with their changes and errors), then applying it, against the real server and the demo company.
 */

test.use({ baseURL: process.env.E2E_BASE_URL });

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
/** Unique addresses and names, so the spec can run more than once against one database. */
const STAMP = Date.now().toString(36);
const HEADER = ['Фамилия', 'Имя', 'Email', 'Отдел', 'Должность', 'Роль'];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

/**
 * Windows-1251, as Excel saves a Russian CSV: ASCII as it is, А–я at 0xC0–0xFF, Ё 0xA8, ё 0xB8.
 * Written by hand so that the test does not trust the server's own decoder to check itself.
 */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = ch.charCodeAt(0);
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (ch === 'Ё') return 0xa8;
      if (ch === 'ё') return 0xb8;
      throw new Error(`not in Windows-1251: ${ch}`);
    }),
  );
}

/** An .xlsx of `rows` on its first sheet; `padding` cells of random text on a second one. */
async function xlsxOf(rows: string[][], padding = 0): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Сотрудники');
  for (const row of rows) sheet.addRow(row);
  const notes = workbook.addWorksheet('Заметки');
  for (let i = 0; i < padding; i++) notes.addRow([randomBytes(30).toString('base64')]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The .eml files the server wrote (no SMTP is configured, so mail goes to DATA_DIR/mail). */
function mailsTo(address: string): string[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (global-setup.ts starts the server)');
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((text) => text.includes(address));
}

async function download(page: Page, link: Locator) {
  const downloaded = page.waitForEvent('download');
  await link.click();
  const file = await downloaded;
  return { name: file.suggestedFilename(), body: await readFile(await file.path()) };
}

/** Opens the import screen the way an admin does: from the employees tab. */
async function openImport(page: Page) {
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Импорт', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/import$/);
  await expect(page.getByRole('heading', { name: 'Импорт сотрудников' })).toBeVisible();
}

async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByRole('button', { name: /Файл с сотрудниками/ })).toContainText(name);
}

const count = (page: Page, label: string | RegExp) =>
  page.getByRole('list', { name: 'Итоги проверки' }).getByText(label);
const rowsTable = (page: Page) => page.getByRole('table', { name: 'Строки файла' });
const row = (page: Page, text: string) => rowsTable(page).getByTestId('import-row').filter({ hasText: text });

test('an admin downloads the template, checks an .xlsx file, applies it and finds the new employee', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN.email, ADMIN.password);
  // the way in: 'Импорт' beside the export and the add button, on a phone too
  await page.goto('/settings');
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await page.screenshot({ path: join(SCREENS, 'import-0-employees-desktop.png') });
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('link', { name: 'Импорт', exact: true })).toBeVisible();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(SCREENS, 'import-0-employees-phone.png') });
  await page.setViewportSize(DESKTOP);
  await openImport(page);
  await page.screenshot({ path: join(SCREENS, 'import-1-form-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(SCREENS, 'import-1-form-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);

  // ── the template, in both formats ──
  const xlsx = await download(page, page.getByRole('link', { name: 'Excel (.xlsx)' }));
  expect(xlsx.name).toMatch(/\.xlsx$/);
  const template = new ExcelJS.Workbook();
  await template.xlsx.load(xlsx.body as unknown as ArrayBuffer);
  const people = template.getWorksheet('Сотрудники');
  expect((people?.getRow(1).values as unknown[]).slice(1)).toEqual([...HEADER, 'Email руководителя']);
  const csv = await download(page, page.getByRole('link', { name: 'CSV', exact: true }));
  expect(csv.name).toMatch(/\.csv$/);
  expect(csv.body.toString('utf8')).toBe('\uFEFFФамилия;Имя;Email;Отдел;Должность;Роль;Email руководителя\r\n');

  // ── a file with two new people (one in a department to create) and a broken row ──
  const alla = `alla.import.${STAMP}@${LOGIN_DOMAIN}`;
  const boris = `boris.import.${STAMP}@${LOGIN_DOMAIN}`;
  // after 'Служба персонала' by name: settings.spec expects that one first of the unordered departments
  const store = `Цех ${STAMP}`;
  const file = await xlsxOf(
    [
      HEADER,
      ['Импортова', 'Алла', alla, 'Отдел продаж', 'Инженер', 'Ученик'],
      ['Импортов', 'Борис', boris, store, '', ''],
      ['Ошибкин', '', 'not-an-email@', 'Отдел продаж', '', ''],
    ],
    3000,
  );
  expect(file.length).toBeGreaterThan(80_000);
  await chooseFile(page, 'сотрудники.xlsx', file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  await page.getByRole('checkbox', { name: 'Создавать отделы' }).check();
  await page.getByRole('checkbox', { name: 'Отправить приглашения' }).uncheck();

  // The file goes out over a slow line (Chromium's throttling), so that the bar is seen filling:
  // a second sheet of random text (the import reads the first one only) makes it ~100 KB.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 40 * 1024,
  });
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  const bar = page.getByRole('progressbar', { name: 'Загрузка файла' });
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
    .toBeGreaterThan(0);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
  await expect(page.getByText(/^Загрузка файла: \d+ %$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Проверить файл' })).toBeDisabled();
  await page.screenshot({ path: join(SCREENS, 'import-2-progress-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SCREENS, 'import-2-progress-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // ── the dry run ──
  await expect(page).toHaveURL(/\/settings\/import\?batch=\d+$/);
  await expect(count(page, 'Новые: 2')).toBeVisible();
  for (const text of ['Изменятся: 0', 'Без изменений: 0', 'Будут удалены: 0', 'Ошибки: 1']) {
    await expect(count(page, text)).toBeVisible();
  }
  await expect(page.getByText('Будет создан 1 отдел:')).toBeVisible();
  await expect(page.getByText(store, { exact: true })).toBeVisible();
  await expect(page.getByText('1 строка с ошибкой будет пропущена', { exact: false })).toBeVisible();
  await expect(rowsTable(page).getByRole('columnheader')).toHaveText(['Строка', 'Сотрудник', 'Действие', 'Изменения']);
  await expect(rowsTable(page).getByTestId('import-row')).toHaveCount(3);
  const allaRow = row(page, alla);
  await expect(allaRow.getByRole('cell').nth(0)).toHaveText('2');
  await expect(allaRow).toContainText('Импортова Алла');
  await expect(allaRow).toContainText('Новый');
  await expect(allaRow).toContainText('Отдел: Отдел продаж');
  await expect(allaRow).toContainText('Должность: Инженер');
  await expect(row(page, boris)).toContainText(`Отдел: ${store}`);
  const broken = row(page, 'Ошибкин');
  await expect(broken).toContainText('Ошибка');
  await expect(broken).toContainText('Не заполнено: Имя');
  await expect(broken).toContainText('Некорректный email «not-an-email@»');
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(SCREENS, 'import-3-result-desktop.png'), fullPage: true });

  // only the errors
  await page.getByRole('radiogroup', { name: 'Показать строки' }).getByText('Ошибки (1)').click();
  await expect(rowsTable(page).getByTestId('import-row')).toHaveCount(1);
  await expect(rowsTable(page).getByTestId('import-row')).toContainText('Ошибкин');

  await page.setViewportSize(PHONE);
  await page.getByRole('combobox', { name: 'Показать строки' }).selectOption({ label: 'Все (3)' });
  await expect(rowsTable(page).getByTestId('import-row')).toHaveCount(3);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(SCREENS, 'import-3-result-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);

  // ── applying ──
  await page.getByRole('button', { name: 'Применить изменения' }).click();
  await expect(toast(page, 'Изменения применены. Добавлено: 2, изменено: 0, удалено: 0.')).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Применено');
  await expect(page.getByRole('button', { name: 'Применить изменения' })).toHaveCount(0);
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);
  await page.screenshot({ path: join(SCREENS, 'import-4-applied-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SCREENS, 'import-4-applied-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);

  await page.getByRole('link', { name: 'К списку сотрудников' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await page.getByPlaceholder('Поиск по имени или email').fill(alla);
  const employee = page.getByTestId('user-row').filter({ hasText: alla });
  await expect(employee).toContainText('Импортова Алла');
  await expect(employee).toContainText('Отдел продаж');
  await page.getByPlaceholder('Поиск по имени или email').fill(boris);
  await expect(page.getByTestId('user-row').filter({ hasText: boris })).toContainText(store);
});

interface Named {
  id: number;
  name: string;
  code?: string;
}

test('a Windows-1251 .csv updates one employee and adds another, who is sent a password', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN.email, ADMIN.password);

  // an employee already in the company, without a position
  const zoya = `zoya.csv.${STAMP}@${LOGIN_DOMAIN}`;
  const fedor = `fedor.csv.${STAMP}@${LOGIN_DOMAIN}`;
  const roles = (await apiCall(page, 'GET', '/api/admin/roles')) as { result: { items: Named[] } };
  const departments = (await apiCall(page, 'GET', '/api/admin/departments')) as { result: { items: Named[] } };
  const learner = roles.result.items.find((r) => r.code === 'learner');
  const sales = departments.result.items.find((d) => d.name === 'Отдел продаж');
  if (!learner || !sales) throw new Error('the demo company has no learner role or sales department');
  await apiCall(page, 'POST', '/api/admin/users', {
    first_name: 'Зоя',
    last_name: 'Цветкова',
    login: zoya,
    password: '',
    department_id: sales.id,
    role_id: learner.id,
    course_ids: [],
    position: null,
  });

  await openImport(page);
  const csv = cp1251(
    [
      'Фамилия;Имя;Email;Отдел;Должность;Роль',
      `Цветкова;Зоя;${zoya};Отдел продаж;Главный бухгалтер;Ученик`,
      `Щукин;Фёдор;${fedor};ИТ-отдел;Инженер-ёлочник;`,
      '',
    ].join('\r\n'),
  );
  await chooseFile(page, 'сотрудники.csv', csv, 'text/csv');
  await expect(page.getByRole('checkbox', { name: 'Отправить приглашения' })).toBeChecked();
  await page.getByRole('button', { name: 'Проверить файл' }).click();

  await expect(count(page, 'Новые: 1')).toBeVisible();
  await expect(count(page, 'Изменятся: 1')).toBeVisible();
  await expect(count(page, 'Ошибки: 0')).toBeVisible();
  await expect(row(page, zoya)).toContainText('Изменится');
  await expect(row(page, zoya)).toContainText('Должность: — → Главный бухгалтер');
  // the Cyrillic of the file came through whole: ё, Ф, Щ
  await expect(row(page, fedor)).toContainText('Щукин Фёдор');
  await expect(row(page, fedor)).toContainText('Должность: Инженер-ёлочник');

  await page.getByRole('button', { name: 'Применить изменения' }).click();
  await expect(toast(page, 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 0.')).toBeVisible();
  await expect(page.getByText('Приглашения новым сотрудникам уходят в фоне')).toBeVisible();
  // invitations go out after the commit, by a background pass every 30 s (MAIL_PASS_MS)
  await expect.poll(() => mailsTo(fedor).length, { timeout: 45_000 }).toBe(1);

  await page.goto(`${baseUrl()}/settings`);
  await page.getByPlaceholder('Поиск по имени или email').fill(zoya);
  await page.getByTestId('user-row').filter({ hasText: zoya }).click();
  await expect(page.getByRole('textbox', { name: 'Должность' })).toHaveValue('Главный бухгалтер');
});

test('deleting the absent is asked first; a check the company outgrew is refused with a way to upload again', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN.email, ADMIN.password);
  const vera = `vera.conflict.${STAMP}@${LOGIN_DOMAIN}`;
  const csv = Buffer.from(`Фамилия;Имя;Email;Отдел\r\nКонфликтова;Вера;${vera};Отдел продаж\r\n`, 'utf8');

  // ── 'Удалить отсутствующих': everyone else in the demo company would go, so it is only looked at ──
  await openImport(page);
  await chooseFile(page, 'все.csv', csv, 'text/csv');
  await page.getByRole('checkbox', { name: 'Удалить отсутствующих' }).check();
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  await expect(count(page, 'Новые: 1')).toBeVisible();
  await expect(count(page, /^Будут удалены: [1-9]\d*$/)).toBeVisible();
  // the admin is not deleted: that row is an error
  await expect(row(page, ADMIN.email)).toContainText('Вы не можете удалить свою собственную учетную запись');
  await page.getByRole('button', { name: 'Применить изменения' }).click();
  const dialog = page.getByRole('dialog', { name: 'Удаление сотрудников' });
  await expect(dialog).toContainText(
    /(Будет удалён \d+ сотрудник, которого|Будут удалены \d+ сотрудник(а|ов), которых) нет в файле\./,
  );
  await expect(dialog).toContainText('Их история обучения сохранится');
  await page.waitForTimeout(600); // the opening animation
  await page.screenshot({ path: join(SCREENS, 'import-5-confirm-desktop.png') });
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('import-status')).toHaveText('Не применено');

  // ── a check made before the company changed ──
  await page.getByRole('button', { name: 'Загрузить другой файл' }).click();
  await expect(page).toHaveURL(/\/settings\/import$/);
  await chooseFile(page, 'вера.csv', csv, 'text/csv');
  await expect(page.getByRole('checkbox', { name: 'Удалить отсутствующих' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  await expect(count(page, 'Новые: 1')).toBeVisible();
  await expect(count(page, 'Будут удалены: 0')).toBeVisible();
  // meanwhile someone adds her by hand
  const roles = (await apiCall(page, 'GET', '/api/admin/roles')) as { result: { items: Named[] } };
  const departments = (await apiCall(page, 'GET', '/api/admin/departments')) as { result: { items: Named[] } };
  await apiCall(page, 'POST', '/api/admin/users', {
    first_name: 'Вера',
    last_name: 'Конфликтова',
    login: vera,
    password: '',
    department_id: departments.result.items.find((d) => d.name === 'Отдел продаж')?.id,
    role_id: roles.result.items.find((r) => r.code === 'learner')?.id,
    course_ids: [],
    position: null,
  });
  await page.getByRole('button', { name: 'Применить изменения' }).click();
  const problem = page.getByRole('alert').filter({ hasText: 'С момента проверки сотрудники или отделы изменились' });
  await expect(problem).toBeVisible();
  await expect(page.getByRole('button', { name: 'Применить изменения' })).toHaveCount(0);
  await page.screenshot({ path: join(SCREENS, 'import-6-conflict-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SCREENS, 'import-6-conflict-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);
  await problem.getByRole('button', { name: 'Загрузить файл ещё раз' }).click();
  await expect(page).toHaveURL(/\/settings\/import$/);

  // the same file, checked again: she is there now, just as the file says, so there is nothing to apply
  await expect(page.getByRole('button', { name: /Файл с сотрудниками/ })).toContainText('вера.csv');
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  await expect(count(page, 'Без изменений: 1')).toBeVisible();
  await expect(count(page, 'Новые: 0')).toBeVisible();
  const apply = page.getByRole('button', { name: 'Применить изменения' });
  await expect(apply).toBeDisabled();
  await expect(apply).toHaveAccessibleDescription(
    'Применять нечего: файл никого не добавляет, не меняет и не удаляет.',
  );
});
