import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  recordLesson,
  roleId,
  Client,
  type TestContext,
} from '../../test/harness.js';
import { parseCsv, readXlsx, values, type ReadCell } from '../../test/spreadsheets.js';
import { csvText, wallClock } from './writer.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ANALYTICS_HEADER = ['Сотрудник', 'Email', 'Отдел', 'Курс', 'Срок', 'Статус', 'Прогресс', 'Последняя активность'];

describe(`exports (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminEmail: string;
  let manager: Client;
  let managerEmail: string;
  let sales: number;
  let support: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    const a = await clientAs(ctx, 'admin');
    admin = a.client;
    adminEmail = a.user.email;
    sales = await createDepartment(ctx.db, 'Продажи');
    support = await createDepartment(ctx.db, 'Поддержка');
    const m = await clientAs(ctx, 'manager', { department_id: sales, first_name: 'Мария', last_name: 'Руководова' });
    manager = m.client;
    managerEmail = m.user.email;
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function courseWithDeadline(title: string, days: number) {
    const id = await createCourse(ctx.db, title, { is_published: true });
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_deadline: true, deadline_value: days, deadline_warning_days: 3 })
      .where('id', '=', id)
      .execute();
    return { id, ...(await createModuleWith(ctx.db, id, { lessons: 2, tests: 1 })) };
  }

  /** Анна overdue (1 of 3 done), Борис almost overdue, Вера in order without a course; Глеб in another department. */
  async function team() {
    const late = await courseWithDeadline('Просроченный курс', 5);
    const soon = await courseWithDeadline('Скоро срок', 16);
    const person = (first_name: string, last_name: string, department_id = sales) =>
      createUser(ctx.db, { role: 'learner', department_id, first_name, last_name });
    const anna = await person('Анна', 'Иванова');
    const boris = await person('Борис', 'Петров');
    const vera = await person('Вера', 'Сидорова');
    const gleb = await person('Глеб', 'Чужой', support);
    const enrolledAt = ctx.clock.now();
    await admin.post('/api/admin/user-courses/attach', { user_id: anna.id, course_ids: [late.id] });
    await admin.post('/api/admin/user-courses/attach', { user_id: boris.id, course_ids: [soon.id] });
    await admin.post('/api/admin/user-courses/attach', { user_id: gleb.id, course_ids: [late.id] });
    await recordLesson(
      ctx.db,
      anna.id,
      late.lessonIds[0] as number,
      enrolledAt.toISOString(),
      enrolledAt.toISOString(),
    );
    ctx.clock.advance(14 * DAY);
    await manager.signIn(managerEmail);
    await admin.signIn(adminEmail);
    // 21:30 UTC is 00:30 of the next day in Moscow.
    await ctx.db.kysely
      .updateTable('users')
      .set({ last_activity_at: '2026-01-28T21:30:00.000Z' })
      .where('id', '=', anna.id)
      .execute();
    return { anna, boris, vera, gleb, enrolledAt };
  }

  it("writes the manager's analytics as xlsx: his department only, real dates and percentages", async () => {
    const { anna, enrolledAt } = await team();
    const res = await manager.get('/api/analytics/export?format=xlsx&tz=Europe/Moscow');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="analytics-2026-01-29.xlsx"; filename*=UTF-8''${encodeURIComponent('Аналитика-2026-01-29.xlsx')}`,
    );

    const { name, rows } = await readXlsx(res.rawPayload);
    expect(name).toBe('Аналитика');
    expect(rows[0]?.map((c) => c.value)).toEqual(ANALYTICS_HEADER);
    // The screen's order: overdue, almost overdue, in order; never the manager himself or another department.
    expect(values(rows.slice(1)).map((r) => r[0])).toEqual(['Иванова Анна', 'Петров Борис', 'Сидорова Вера']);

    const annaRow = rows[1] as ReadCell[];
    expect(annaRow.map((c) => c.value)).toEqual([
      'Иванова Анна',
      anna.email,
      'Продажи',
      'Просроченный курс',
      // the deadline as the screen shows it: 5 days after enrolment, a date cell
      new Date(Date.UTC(2026, 0, 20)),
      'Просрочено',
      0.33,
      // last activity as a Moscow wall-clock time
      new Date(Date.UTC(2026, 0, 29, 0, 30)),
    ]);
    expect(enrolledAt.toISOString().slice(0, 10)).toBe('2026-01-15');
    expect(annaRow.map((c) => c.type)).toEqual([
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.Date,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.Number,
      ExcelJS.ValueType.Date,
    ]);
    expect(annaRow[4]?.numFmt).toBe('dd.mm.yyyy');
    expect(annaRow[6]?.numFmt).toBe('0%');
    expect(annaRow[7]?.numFmt).toBe('dd.mm.yyyy hh:mm');

    // The same rows as the screen's own call, deadline text included.
    const screen = (await manager.get('/api/analytics/users')).json().result.analytic;
    expect(screen.overdue[0].deadline).toBe('20.01.2026');
    expect(screen.overdue[0].department).toBe('Продажи');

    const boris = rows[2] as ReadCell[];
    expect([boris[5]?.value, boris[6]?.value, boris[6]?.type]).toEqual([
      'Почти просрочено',
      0,
      ExcelJS.ValueType.Number,
    ]);
    // Вера: no course, no deadline, never active — empty cells, not text.
    const vera = rows[3] as ReadCell[];
    expect(vera.map((c) => c.value)).toEqual([
      'Сидорова Вера',
      expect.any(String),
      'Продажи',
      null,
      null,
      'Все в порядке',
      0,
      null,
    ]);
    expect(values(rows).flat()).not.toContain('Руководова Мария');
    expect(values(rows).flat()).not.toContain(managerEmail);
  });

  it('an admin exports every department; the filters are the screen’s (status toggle, name search)', async () => {
    await team();
    const names = async (client: Client, query: string) => {
      const res = await client.get(`/api/analytics/export?${query}`);
      expect(res.statusCode).toBe(200);
      return values((await readXlsx(res.rawPayload)).rows.slice(1)).map((r) => r[0]);
    };
    // The admin sees everyone (the manager too), overdue first.
    const all = await names(admin, '');
    expect(all.slice(0, 2).sort()).toEqual(['Иванова Анна', 'Чужой Глеб']);
    expect(all).toContain('Руководова Мария');
    expect(await names(manager, 'status=overdue')).toEqual(['Иванова Анна']);
    expect(await names(manager, 'status=almost_overdue')).toEqual(['Петров Борис']);
    expect(await names(manager, 'status=in_order')).toEqual(['Сидорова Вера']);
    // case-insensitive substring of the name, trimmed, as on the screen
    expect(await names(manager, `search=${encodeURIComponent('  ВЕРА ')}`)).toEqual(['Сидорова Вера']);
    expect(await names(manager, `search=${encodeURIComponent('ов')}`)).toEqual([
      'Иванова Анна',
      'Петров Борис',
      'Сидорова Вера',
    ]);
    expect(await names(manager, `status=overdue&search=${encodeURIComponent('Вера')}`)).toEqual([]);
    expect(await names(admin, `search=${encodeURIComponent('глеб')}`)).toEqual(['Чужой Глеб']);
  });

  it('writes CSV for Russian Excel: BOM, semicolons, dd.mm.yyyy dates, percent, no formula injection', async () => {
    const { anna } = await team();
    await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'x;"y"',
      last_name: '=HYPERLINK(1)',
    });
    const res = await manager.get('/api/analytics/export?format=csv&tz=Europe/Moscow');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="analytics-2026-01-29.csv"');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = res.rawPayload.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(ANALYTICS_HEADER);
    expect(rows[1]).toEqual([
      'Иванова Анна',
      anna.email,
      'Продажи',
      'Просроченный курс',
      '20.01.2026',
      'Просрочено',
      '33%',
      '29.01.2026 00:30',
    ]);
    expect(rows.map((r) => r[0])).toContain(`'=HYPERLINK(1) x;"y"`);
    expect(csvText('-1')).toBe("'-1");
    expect(csvText('a;b')).toBe('"a;b"');
    expect(rows.every((r) => r.length === ANALYTICS_HEADER.length)).toBe(true);
  });

  it('checks access as the screens do and validates the query', async () => {
    const anonymous = new Client(ctx.app);
    expect((await anonymous.get('/api/analytics/export')).statusCode).toBe(401);
    expect((await anonymous.get('/api/admin/users/export')).statusCode).toBe(401);
    const { client: learner } = await clientAs(ctx, 'learner', { department_id: sales });
    const denied = await learner.get('/api/analytics/export');
    expect([denied.statusCode, denied.json().result.message]).toEqual([403, 'Доступ запрещен']);
    // The employees tab is the admin's: a manager may not export it.
    expect((await manager.get('/api/admin/users/export')).statusCode).toBe(403);
    expect((await admin.get('/api/analytics/export?format=pdf')).statusCode).toBe(422);
    expect((await admin.get('/api/analytics/export?status=late')).statusCode).toBe(422);
    expect((await admin.get('/api/analytics/export?tz=Mars/Base')).statusCode).toBe(422);
    expect((await admin.get('/api/admin/users/export?sort=salary')).statusCode).toBe(422);
  });

  it('exports the employees tab: every page of its search and sort, in its order, batch after batch', async () => {
    const learnerRole = await roleId(ctx.db, 'learner');
    const hash = (await ctx.db.kysely.selectFrom('users').select('password_hash').executeTakeFirstOrThrow())
      .password_hash;
    // More than one batch (1000) of matching employees.
    const many = Array.from({ length: 1150 }, (_, i) => ({
      first_name: `Имя${i}`,
      last_name: `Массов${String(i).padStart(4, '0')}`,
      email: `mass${String(i).padStart(4, '0')}@example.com`,
      password_hash: hash,
      role_id: learnerRole,
      department_id: i % 2 === 0 ? support : null,
      position: i === 0 ? 'Инженер' : null,
      last_activity_at: i === 0 ? '2026-01-10T08:05:00.000Z' : null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    }));
    for (let i = 0; i < many.length; i += 200) {
      await ctx.db.kysely
        .insertInto('users')
        .values(many.slice(i, i + 200))
        .execute();
    }

    const query = `search=${encodeURIComponent('МАССОВ')}&sort=email&direction=desc`;
    const res = await admin.get(`/api/admin/users/export?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="employees-2026-01-15.xlsx"');
    const { name, rows } = await readXlsx(res.rawPayload);
    expect(name).toBe('Сотрудники');
    expect(rows[0]?.map((c) => c.value)).toEqual([
      'Сотрудник',
      'Должность',
      'Отдел',
      'Роль',
      'Email',
      'Последняя активность',
    ]);

    // Exactly the tab's pages, one after another.
    const shown: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const body = (await admin.get(`/api/admin/users?${query}&page=${page}&per_page=200`)).json();
      expect(body.total).toBe(1150);
      shown.push(...body.items.map((u: { email: string }) => u.email));
    }
    expect(rows.slice(1).map((r) => r[4]?.value)).toEqual(shown);
    expect(shown[0]).toBe('mass1149@example.com');

    const first = rows.at(-1) as ReadCell[];
    expect(first.map((c) => c.value)).toEqual([
      'Массов0000 Имя0',
      'Инженер',
      'Поддержка',
      'Ученик',
      'mass0000@example.com',
      // No zone sent: the company's (TIMEZONE, Moscow by default), 08:05 UTC being 11:05 there.
      new Date(Date.UTC(2026, 0, 10, 11, 5)),
    ]);
    expect([first[5]?.type, first[5]?.numFmt]).toEqual([ExcelJS.ValueType.Date, 'dd.mm.yyyy hh:mm']);
    expect((rows[1] as ReadCell[])[2]?.value).toBeNull(); // no department: an empty cell

    // CSV of the same search, the whole company without one.
    const csv = await admin.get(`/api/admin/users/export?format=csv&${query}&tz=Asia/Novosibirsk`);
    const csvRows = parseCsv(csv.rawPayload.toString('utf8').slice(1));
    expect(csvRows.slice(1).map((r) => r[4])).toEqual(shown);
    expect(csvRows.at(-1)?.[5]).toBe('10.01.2026 15:05');
    const everyone = await readXlsx((await admin.get('/api/admin/users/export')).rawPayload);
    expect(everyone.rows.length - 1).toBe(1150 + 2);
  });

  it('wallClock shifts an instant to a zone’s wall-clock time', () => {
    const instant = new Date('2026-07-01T22:15:00.000Z');
    expect(wallClock(instant, 'UTC').toISOString()).toBe('2026-07-01T22:15:00.000Z');
    expect(wallClock(instant, 'Europe/Moscow').toISOString()).toBe('2026-07-02T01:15:00.000Z');
    expect(wallClock(instant, 'America/New_York').toISOString()).toBe('2026-07-01T18:15:00.000Z');
  });
});
