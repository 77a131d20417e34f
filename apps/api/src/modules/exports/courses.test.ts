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
  queriesDuring,
  recordLesson,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { parseCsv, readWorkbook, values } from '../../test/spreadsheets.js';
import { employeeCourses } from '../analytics/employeeCourses.js';
import { CoursesRepository } from '../courses/repository.js';
import { learningStatesOver } from '../progress/standalone.js';

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

/** The analytics export per course: one row per employee and enrolled course of the screen's people. */
describe(`analytics export per course (${dialectName})`, () => {
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
    const m = await clientAs(ctx, 'manager', { department_id: sales });
    manager = m.client;
    managerEmail = m.user.email;
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function course(title: string, deadlineDays: number | null, lessons: number, tests = 0) {
    const id = await createCourse(ctx.db, title, { is_published: true });
    if (deadlineDays !== null)
      await ctx.db.kysely
        .updateTable('courses')
        .set({ has_deadline: true, deadline_value: deadlineDays, deadline_warning_days: 3 })
        .where('id', '=', id)
        .execute();
    return { id, ...(await createModuleWith(ctx.db, id, { lessons, tests })) };
  }

  /**
   * Анна: overdue course (1 of 3 done) and a course without deadline she completed; Борис: almost
   * overdue; Вера: no course; Глеб in another department; the manager enrolled in a course himself.
   */
  async function team() {
    const late = await course('Просроченный курс', 5, 2, 1);
    const soon = await course('Скоро срок', 16, 1);
    const free = await course('Без срока', null, 1);
    const person = (first_name: string, last_name: string, department_id = sales) =>
      createUser(ctx.db, { role: 'learner', department_id, first_name, last_name });
    const anna = await person('Анна', 'Иванова');
    const boris = await person('Борис', 'Петров');
    const vera = await person('Вера', 'Сидорова');
    const gleb = await person('Глеб', 'Чужой', support);
    const managerId = (
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', managerEmail).executeTakeFirstOrThrow()
    ).id;
    const attach = async (userId: number, courseIds: number[]) =>
      expect(
        (await admin.post('/api/admin/user-courses/attach', { user_id: userId, course_ids: courseIds })).statusCode,
      ).toBe(200);
    await attach(anna.id, [late.id, free.id]);
    await attach(boris.id, [soon.id]);
    await attach(gleb.id, [late.id]);
    await attach(managerId, [free.id]);
    const enrolledAt = ctx.clock.now().toISOString();
    await recordLesson(ctx.db, anna.id, late.lessonIds[0] as number, enrolledAt, enrolledAt);
    ctx.clock.advance(14 * DAY);
    // 21:30 UTC is 00:30 of the next day in Moscow.
    await recordLesson(
      ctx.db,
      anna.id,
      free.lessonIds[0] as number,
      '2026-01-16T21:00:00.000Z',
      '2026-01-16T21:30:00.000Z',
    );
    await manager.signIn(managerEmail);
    await admin.signIn(adminEmail);
    await ctx.db.kysely
      .updateTable('users')
      .set({ last_activity_at: '2026-01-28T21:30:00.000Z' })
      .where('id', '=', anna.id)
      .execute();
    return { anna, boris, vera, gleb, late };
  }

  it('adds a sheet per course to the xlsx: every course of each shown employee, real dates and percentages', async () => {
    const { anna, boris } = await team();
    const res = await manager.get('/api/analytics/export?format=xlsx&tz=Europe/Moscow');
    expect(res.statusCode).toBe(200);
    const sheets = await readWorkbook(res.rawPayload);
    expect(sheets.map((s) => s.name)).toEqual(['Аналитика', 'По курсам']);
    // The screen's sheet is as it was: one row per employee.
    expect(values(sheets[0]?.rows.slice(1) ?? []).map((r) => r[0])).toEqual([
      'Иванова Анна',
      'Петров Борис',
      'Сидорова Вера',
    ]);

    const { rows } = sheets[1] as { rows: { value: unknown; type: number; numFmt: string | undefined }[][] };
    expect(values(rows)).toEqual([
      COURSES_HEADER,
      [
        'Иванова Анна',
        anna.email,
        'Продажи',
        'Просроченный курс',
        new Date(Date.UTC(2026, 0, 20)),
        'Просрочено',
        0.33,
        null,
        new Date(Date.UTC(2026, 0, 29, 0, 30)),
      ],
      [
        'Иванова Анна',
        anna.email,
        'Продажи',
        'Без срока',
        null,
        'Все в порядке',
        1,
        // completed at 21:30 UTC on the 16th: the 17th in Moscow
        new Date(Date.UTC(2026, 0, 17)),
        new Date(Date.UTC(2026, 0, 29, 0, 30)),
      ],
      [
        'Петров Борис',
        boris.email,
        'Продажи',
        'Скоро срок',
        new Date(Date.UTC(2026, 0, 31)),
        'Почти просрочено',
        0,
        null,
        null,
      ],
    ]);
    const completed = rows[2] ?? [];
    expect(completed.map((c) => c.type)).toEqual([
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.Null,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.Number,
      ExcelJS.ValueType.Date,
      ExcelJS.ValueType.Date,
    ]);
    expect(completed.map((c) => c.numFmt)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'dd.mm.yyyy',
      undefined,
      '0%',
      'dd.mm.yyyy',
      'dd.mm.yyyy hh:mm',
    ]);
  });

  it('offers the per-course rows as CSV (and xlsx) at /api/analytics/export/courses, with the screen’s filters', async () => {
    const { anna } = await team();
    const res = await manager.get('/api/analytics/export/courses?format=csv&tz=Europe/Moscow');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="analytics-courses-2026-01-29.csv"; filename*=UTF-8''${encodeURIComponent('Аналитика-по-курсам-2026-01-29.csv')}`,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(res.rawPayload.toString('utf8').slice(1));
    expect(rows).toEqual([
      COURSES_HEADER,
      [
        'Иванова Анна',
        anna.email,
        'Продажи',
        'Просроченный курс',
        '20.01.2026',
        'Просрочено',
        '33%',
        '',
        '29.01.2026 00:30',
      ],
      [
        'Иванова Анна',
        anna.email,
        'Продажи',
        'Без срока',
        '',
        'Все в порядке',
        '100%',
        '17.01.2026',
        '29.01.2026 00:30',
      ],
      ['Петров Борис', expect.any(String), 'Продажи', 'Скоро срок', '31.01.2026', 'Почти просрочено', '0%', '', ''],
    ]);

    const courseRows = async (client: Client, query: string) => {
      const answer = await client.get(`/api/analytics/export/courses?format=csv&${query}`);
      expect(answer.statusCode).toBe(200);
      return parseCsv(answer.rawPayload.toString('utf8').slice(1))
        .slice(1)
        .map((r) => `${r[0]}: ${r[3]}`);
    };
    expect(await courseRows(manager, 'status=almost_overdue')).toEqual(['Петров Борис: Скоро срок']);
    expect(await courseRows(manager, `search=${encodeURIComponent(' анна ')}`)).toEqual([
      'Иванова Анна: Просроченный курс',
      'Иванова Анна: Без срока',
    ]);
    // Вера is in order but has no course: the header alone.
    expect(await courseRows(manager, 'status=in_order')).toEqual([]);
    // An admin's team is the company: Глеб and the manager too.
    const everyone = await courseRows(admin, '');
    expect(everyone).toContain('Чужой Глеб: Просроченный курс');
    expect(everyone).toHaveLength(5);

    const xlsx = await manager.get('/api/analytics/export/courses?tz=Europe/Moscow');
    expect(xlsx.headers['content-disposition']).toContain('filename="analytics-courses-2026-01-29.xlsx"');
    const sheets = await readWorkbook(xlsx.rawPayload);
    expect(sheets.map((s) => [s.name, s.rows.length])).toEqual([['По курсам', 4]]);
  });

  it('reads the rows set-based: as many statements for a large team as for a small one', async () => {
    const { late } = await team();
    const statements = async () =>
      (await queriesDuring(() => manager.get('/api/analytics/export?format=xlsx'))).filter(
        (s) => !/^(begin|commit)/i.test(s),
      ).length;
    const small = await statements();
    for (let i = 0; i < 25; i++) {
      const u = await createUser(ctx.db, { role: 'learner', department_id: sales, first_name: `Новый${i}` });
      await admin.post('/api/admin/user-courses/attach', { user_id: u.id, course_ids: [late.id] });
    }
    const res = await manager.get('/api/analytics/export?format=xlsx');
    expect((await readWorkbook(res.rawPayload))[1]?.rows).toHaveLength(1 + 3 + 25);
    expect(await statements()).toBe(small);
  });

  it('reads the people a batch at a time, in the order given, each one’s courses in catalogue order', async () => {
    const { anna, boris, vera } = await team();
    const { reads } = learningStatesOver({ db: ctx.db.kysely }, ctx.clock);
    const courses = new CoursesRepository({ db: ctx.db.kysely });
    const read = async (perRead?: number) => {
      const batches: string[][] = [];
      for await (const batch of employeeCourses(reads, courses, [vera.id, boris.id, anna.id], perRead))
        batches.push(batch.map((c) => `${c.user_id} ${c.title} ${c.summary.progress}`));
      return batches;
    };
    const batches = await read(2);
    expect(batches).toEqual([
      [`${boris.id} Скоро срок 0`],
      [`${anna.id} Просроченный курс 33`, `${anna.id} Без срока 100`],
    ]);
    expect(await read()).toEqual([batches.flat()]);
  });

  it('is the screen’s access, documented in OpenAPI', async () => {
    const { client: learner } = await clientAs(ctx, 'learner', { department_id: sales });
    const denied = await learner.get('/api/analytics/export/courses');
    expect([denied.statusCode, denied.json().result.message]).toEqual([403, 'Доступ запрещен']);
    expect((await manager.get('/api/analytics/export/courses?format=pdf')).statusCode).toBe(422);
    expect((await manager.get('/api/analytics/export/courses?status=late')).statusCode).toBe(422);
    const doc = (await admin.get('/docs/json')).json();
    const operation = doc.paths['/api/analytics/export/courses'].get;
    expect(operation.tags).toEqual(['analytics']);
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'format',
      'search',
      'status',
      'tz',
    ]);
  });
});
