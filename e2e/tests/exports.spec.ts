import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { DEMO_PASSWORD, LOGIN_DOMAIN } from '../server.js';
import { baseUrl, signIn } from './helpers.js';

/**
 * Exports (issue 16): the demo manager filters the analytics screen, downloads 'Экспорт в Excel'
 * and gets exactly the employees shown, with real dates and percentages; the CSV holds the same.
 * The xlsx has a second sheet, one row per employee and course, which 'CSV по курсам' gives alone.
 */

const MANAGER = `manager@${LOGIN_DOMAIN}`;

interface Employee {
  id: number;
  name: string;
  email: string;
  department: string | null;
  percent: number;
  deadline: string;
  course: { id: number; name: string } | null;
}
type GroupKey = 'overdue' | 'almost_overdue' | 'in_order';
type Groups = Record<GroupKey, Employee[]>;

const STATUS: Record<GroupKey, { filter: string; text: string }> = {
  overdue: { filter: 'Просроченный', text: 'Просрочено' },
  almost_overdue: { filter: 'Почти просрочено', text: 'Почти просрочено' },
  in_order: { filter: 'Все в порядке', text: 'Все в порядке' },
};

/** Each employee's courses as the employee modal lists them (catalogue order). */
async function coursesOf(page: Page, employees: Employee[]): Promise<string[]> {
  const out: string[] = [];
  for (const e of employees) {
    const response = await page.request.get(`${baseUrl()}/api/analytics/users/${e.id}`);
    expect(response.status()).toBe(200);
    const { courses } = ((await response.json()) as { result: { user: { courses: { name: string }[] } } }).result.user;
    out.push(...courses.map((c) => `${e.name}: ${c.name}`));
  }
  return out;
}

const COURSES_HEADER = [
  'Сотрудник',
  'Email',
  'Отдел',
  'Курс',
  'Срок',
  'Статус',
  'Прогресс',
  'Дата завершения',
  'Последняя активность',
];

async function overview(page: Page): Promise<Groups> {
  const response = await page.request.get(`${baseUrl()}/api/analytics/users`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { result: { analytic: Groups } }).result.analytic;
}

/** Clicks the export menu's item and waits for the file the browser downloads. */
async function download(page: Page, item: 'Excel (.xlsx)' | 'CSV' | 'CSV по курсам') {
  await page.getByRole('button', { name: 'Экспорт в Excel' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: item, exact: true }).click();
  const file = await downloaded;
  const path = await file.path();
  return { name: file.suggestedFilename(), body: await readFile(path) };
}

test('the manager downloads the filtered analytics as xlsx and csv', async ({ page }) => {
  await signIn(page, MANAGER, DEMO_PASSWORD);
  await page.goto(`${baseUrl()}/analytics`);
  await expect(page.getByRole('heading', { name: 'Аналитика', level: 1 })).toBeVisible();

  const groups = await overview(page);
  // the first group that has a deadline to check (the demo has overdue employees)
  const key = (Object.keys(STATUS) as GroupKey[]).find((k) => groups[k].some((e) => e.deadline !== ''));
  if (!key) throw new Error('the demo has no employee with a deadline');
  const shown = groups[key];
  expect(shown.length).toBeGreaterThan(0);
  const toggle = page.getByRole('button', { name: STATUS[key].filter, exact: true });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('employees-count')).toHaveText(String(shown.length));

  const xlsx = await download(page, 'Excel (.xlsx)');
  expect(xlsx.name).toMatch(/^Аналитика-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([
    undefined, // exceljs rows are 1-based
    'Сотрудник',
    'Email',
    'Отдел',
    'Курс',
    'Срок',
    'Статус',
    'Прогресс',
    'Последняя активность',
  ]);
  // exactly the employees on the screen, in its order, and only them
  expect(sheet.actualRowCount).toBe(shown.length + 1);
  shown.forEach((employee, i) => {
    const row = sheet.getRow(i + 2);
    expect(row.getCell(1).value).toBe(employee.name);
    expect(row.getCell(2).value).toBe(employee.email);
    expect(row.getCell(3).value).toBe(employee.department);
    expect(row.getCell(6).value).toBe(STATUS[key].text);
    expect(row.getCell(7).value).toBe(employee.percent / 100);
    expect(row.getCell(7).numFmt).toBe('0%');
  });
  // the deadline is a date cell showing the screen's dd.mm.yyyy
  const withDeadline = shown.findIndex((e) => e.deadline !== '');
  const cell = sheet.getRow(withDeadline + 2).getCell(5);
  expect(cell.type).toBe(ExcelJS.ValueType.Date);
  expect(cell.numFmt).toBe('dd.mm.yyyy');
  const date = cell.value as Date;
  const [dd, mm, yyyy] = (shown[withDeadline] as Employee).deadline.split('.').map(Number);
  expect([date.getUTCDate(), date.getUTCMonth() + 1, date.getUTCFullYear()]).toEqual([dd, mm, yyyy]);

  // the second sheet: every course of those employees, as their modal lists them
  const perCourse = await coursesOf(page, shown);
  expect(perCourse.length).toBeGreaterThan(shown.length);
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['Аналитика', 'По курсам']);
  const courses = workbook.worksheets[1]!;
  expect(courses.getRow(1).values).toEqual([undefined, ...COURSES_HEADER]);
  expect(courses.actualRowCount).toBe(perCourse.length + 1);
  const sheetRows = perCourse.map((_, i) => courses.getRow(i + 2));
  expect(sheetRows.map((r) => `${String(r.getCell(1).value)}: ${String(r.getCell(4).value)}`)).toEqual(perCourse);
  for (const r of sheetRows) {
    expect(r.getCell(7).numFmt).toBe('0%');
    expect(typeof r.getCell(7).value).toBe('number');
    expect(['Просрочено', 'Почти просрочено', 'Все в порядке']).toContain(r.getCell(6).value);
  }

  const csv = await download(page, 'CSV');
  expect(csv.name).toMatch(/^Аналитика-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...csv.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.body.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe('Сотрудник;Email;Отдел;Курс;Срок;Статус;Прогресс;Последняя активность');
  expect(lines).toHaveLength(shown.length + 1);
  expect(lines[1]).toContain(`;${shown[0]!.email};`);
  expect(lines[1]).toContain(`;${STATUS[key].text};${shown[0]!.percent}%;`);

  // 'CSV по курсам': the second sheet alone, for the same filter
  const byCourse = await download(page, 'CSV по курсам');
  expect(byCourse.name).toMatch(/^Аналитика-по-курсам-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...byCourse.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const courseLines = byCourse.body.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(courseLines[0]).toBe(COURSES_HEADER.join(';'));
  // (the demo's names and titles hold no ';' or quote, so a line splits on ';')
  expect(courseLines.slice(1).map((l) => `${l.split(';')[0]}: ${l.split(';')[3]}`)).toEqual(perCourse);
});
