import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, seriousViolations, signIn, toast } from './helpers.js';

/**
 * Issue 32: the school settings' 'Журнал изменений' — an admin edits an employee, finds who changed
 * what in the journal, narrows it by action and name, and downloads exactly those entries.
 */

test.use({ baseURL: process.env.E2E_BASE_URL });

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
/** A unique employee, so the spec can run more than once against one database. */
const STAMP = Date.now().toString(36);
const LOCAL = `audit-${STAMP}`;
const LAST_NAME = `Журналова${STAMP}`;
const NAME = `${LAST_NAME} Вера`;

interface Named {
  id: number;
  name: string;
  code?: string;
}

/** The employee as the demo admin adds them: a cashier in the first department. */
async function createEmployee(page: Page): Promise<{ from: string; to: string }> {
  const roles = (await apiCall(page, 'GET', '/api/admin/roles')) as { result: { items: Named[] } };
  const departments = (await apiCall(page, 'GET', '/api/admin/departments')) as { result: { items: Named[] } };
  const learnerRole = roles.result.items.find((r) => r.code === 'learner');
  const [from, to] = departments.result.items;
  if (!learnerRole || !from || !to) throw new Error('the demo company has no learner role or two departments');
  await apiCall(page, 'POST', '/api/admin/users', {
    first_name: 'Вера',
    last_name: LAST_NAME,
    login: `${LOCAL}@${LOGIN_DOMAIN}`,
    password: '',
    department_id: from.id,
    role_id: learnerRole.id,
    course_ids: [],
    position: 'Кассир',
  });
  return { from: from.name, to: to.name };
}

async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Clicks the export menu's item and waits for the file the browser downloads. */
async function download(page: Page, item: 'Excel (.xlsx)' | 'CSV') {
  await page.getByRole('button', { name: 'Экспорт в Excel' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: item, exact: true }).click();
  const file = await downloaded;
  return { name: file.suggestedFilename(), body: await readFile(await file.path()) };
}

test('an admin edits an employee and finds the change in the journal, filters it and downloads it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN.email, ADMIN.password);
  const admin = ((await apiCall(page, 'GET', '/api/check-auth')) as { name: string }).name;
  const departments = await createEmployee(page);

  // ── the admin edits the employee in the employees tab: another department and position ──
  await page.goto('/settings');
  const users = page.getByTestId('user-row');
  await page.getByRole('searchbox', { name: 'Поиск по имени или email' }).fill(LOCAL);
  await expect(users).toHaveCount(1);
  await users.first().click();
  const edit = page.getByRole('form', { name: 'Редактирование сотрудника' });
  await expect(edit.getByRole('textbox', { name: 'Должность' })).toHaveValue('Кассир');
  await edit.getByRole('textbox', { name: 'Должность' }).fill('Старший кассир');
  await choose(page, edit, 'Отдел', departments.to);
  await edit.getByRole('button', { name: 'Сохранить' }).click();
  await expect(toast(page, `Пользователь ${NAME} успешно обновлен`)).toBeVisible();
  await expect(edit).toBeHidden();

  // ── the journal: the edit is the newest entry, each change on its line ──
  const nav = page.getByRole('navigation', { name: 'Разделы настроек' });
  await nav.getByRole('link', { name: 'Журнал изменений' }).click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  await expect(nav.getByRole('link', { name: 'Журнал изменений' })).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: 'Журнал изменений' });
  await expect(table.getByRole('columnheader')).toHaveText(['Время', 'Кто', 'Действие', 'Кого касается', 'Изменения']);
  const rows = table.getByTestId('audit-row');
  const edited = rows.first();
  await expect(edited.getByRole('cell').nth(3)).toHaveText(NAME);
  await expect(edited.getByRole('cell').nth(2)).toHaveText('Сотрудник изменён');
  await expect(edited.getByRole('cell').nth(1)).toHaveText(`${admin}Вручную`);
  await expect(edited.getByTestId('audit-change')).toHaveText([
    `Отдел: ${departments.from} → ${departments.to}`,
    'Должность: Кассир → Старший кассир',
  ]);
  await expect(edited.locator('time')).toHaveText(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
  await page.screenshot({ path: join(SCREENS, 'audit-desktop.png'), fullPage: true });
  // with entries shown (a11y.spec.ts may meet an empty journal): the badges' colours too
  expect(await seriousViolations(page, '.mantine-Notification-root')).toEqual([]);

  // ── filtered by action, then by the employee's name: their creation alone ──
  await choose(page, page, 'Действие', 'Сотрудник добавлен');
  await expect(rows.filter({ hasText: 'Сотрудник изменён' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Сотрудник или кто изменил' }).fill(LAST_NAME.toUpperCase());
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText('Сотрудник добавлен');
  await expect(rows.first()).toContainText(`Email: ${LOCAL}@${LOGIN_DOMAIN}`);
  await expect(rows.first()).toContainText('Должность: Кассир');

  // ── the export holds exactly those entries ──
  const xlsx = await download(page, 'Excel (.xlsx)');
  expect(xlsx.name).toMatch(/^Журнал-изменений-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.name).toBe('Журнал изменений');
  expect(sheet.getRow(1).values).toEqual([
    undefined, // exceljs rows are 1-based
    'Время',
    'Кто',
    'Источник',
    'Действие',
    'Кого касается',
    'Курс',
    'Изменения',
  ]);
  expect(sheet.actualRowCount).toBe(2);
  const created = sheet.getRow(2);
  expect(created.getCell(1).type).toBe(ExcelJS.ValueType.Date);
  expect(created.getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm');
  expect([2, 3, 4, 5, 6].map((c) => created.getCell(c).value)).toEqual([
    admin,
    'Вручную',
    'Сотрудник добавлен',
    NAME,
    null,
  ]);
  expect(created.getCell(7).value).toBe(
    `Фамилия: ${LAST_NAME}; Имя: Вера; Email: ${LOCAL}@${LOGIN_DOMAIN}; Отдел: ${departments.from}; Должность: Кассир; Роль: Ученик`,
  );

  // Every action again: the CSV holds the edit too, newest first.
  await choose(page, page, 'Действие', 'Все действия');
  await expect(rows).toHaveCount(2);
  const csv = await download(page, 'CSV');
  expect(csv.name).toMatch(/^Журнал-изменений-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = csv.body
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines).toHaveLength(3);
  const editedLine = lines[1] ?? '';
  expect(editedLine.slice(0, 17)).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d;$/);
  // the changes are one field, quoted for the '; ' between them
  expect(editedLine.slice(17)).toBe(
    `${admin};Вручную;Сотрудник изменён;${NAME};;"Отдел: ${departments.from} → ${departments.to}; Должность: Кассир → Старший кассир"`,
  );

  // A phone opens the journal: one stacked cell a row, the open tab scrolled into view.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(rows.first()).toContainText('Сотрудник изменён');
  await expect(nav.getByRole('link', { name: 'Журнал изменений' })).toBeInViewport();
  await expect(table.getByRole('columnheader')).toHaveText(['Изменение']);
  await page.screenshot({ path: join(SCREENS, 'audit-phone.png'), fullPage: true });
});
