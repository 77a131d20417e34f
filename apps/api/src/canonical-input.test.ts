import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  clientAs,
  createDepartment,
  createTestApp,
  dialectName,
  roleId,
  type TestContext,
} from './test/harness.js';

const ID_MESSAGE = 'Некорректный идентификатор';
const UNSAFE = 'Поле содержит недопустимые символы';

describe(`ids are canonical decimal integers (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminId: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    ({
      client: admin,
      user: { id: adminId },
    } = await clientAs(ctx, 'admin'));
  });
  afterEach(async () => {
    await ctx.close();
  });

  // Each spelling once meant the same row as its canonical form.
  const spellings = (id: number) => [
    `${id}.0`,
    `0x${id.toString(16)}`,
    `+${id}`,
    `${id}e0`,
    `%20${id}`,
    `0${id}`,
    `${id}%20`,
  ];

  it('a path id in any other spelling is refused, never read as the id', async () => {
    expect((await admin.get(`/api/admin/users/${adminId}`)).statusCode).toBe(200);
    for (const spelling of spellings(adminId)) {
      const res = await admin.get(`/api/admin/users/${spelling}`);
      expect(res.statusCode, spelling).toBe(422);
      expect(res.json().errors).toEqual({ id: [ID_MESSAGE] });
    }
    for (const spelling of ['0', '-1', '2147483648', '99999999999', '1_0']) {
      expect((await admin.get(`/api/admin/users/${spelling}`)).statusCode, spelling).toBe(422);
    }
  });

  it('renaming a category by a non-canonical id changes nothing', async () => {
    const created = await admin.post('/api/courses/categories', { name: 'Охрана труда' });
    expect(created.statusCode).toBe(201);
    const id: number = created.json().result.item.id;
    for (const spelling of spellings(id)) {
      const res = await admin.put(`/api/courses/categories/${spelling}`, { name: `Другое ${spelling}` });
      expect(res.statusCode, spelling).toBe(422);
    }
    const ok = await admin.put(`/api/courses/categories/${id}`, { name: 'Пожарная безопасность' });
    expect(ok.statusCode).toBe(200);
    const names = await ctx.db.kysely.selectFrom('course_categories').select('name').where('id', '=', id).execute();
    expect(names).toEqual([{ name: 'Пожарная безопасность' }]);
  });

  it('a body id must be a JSON integer: strings and fractions are refused', async () => {
    const department = await createDepartment(ctx.db);
    const learner = await roleId(ctx.db, 'learner');
    const user = {
      first_name: 'Анна',
      last_name: 'Смирнова',
      login: 'anna@example.com',
      position: null,
      password: '',
      course_ids: [],
    };
    const bad = [
      { department_id: `${department}`, role_id: learner },
      { department_id: `0x${department.toString(16)}`, role_id: learner },
      { department_id: department, role_id: `${learner}e0` },
      { department_id: department + 0.5, role_id: learner },
      { department_id: department, role_id: true },
    ];
    for (const ids of bad) {
      const res = await admin.post('/api/admin/users', { ...user, ...ids });
      expect(res.statusCode, JSON.stringify(ids)).toBe(422);
    }
    for (const body of [
      { user_id: `${adminId}`, course_ids: [] },
      { user_id: adminId, course_ids: ['1'] },
      { user_id: adminId, course_ids: [' 1'] },
    ]) {
      const res = await admin.post('/api/admin/user-courses/attach', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'anna@example.com').execute(),
    ).toEqual([]);
    const created = await admin.post('/api/admin/users', { ...user, department_id: department, role_id: learner });
    expect(created.statusCode).toBe(201);
  });
});

describe(`names and texts refuse control and bidirectional-override characters (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  beforeEach(async () => {
    ctx = await createTestApp();
    ({ client: admin } = await clientAs(ctx, 'admin'));
  });
  afterEach(async () => {
    await ctx.close();
  });

  const forbidden = [
    '\u0000',
    '\u0007',
    '\u001b[31m',
    '\u007f',
    '\u0085',
    '\u009b',
    '\u202e',
    '\u202a',
    '\u2066',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
  ];

  it('refuses them in every name field with a Russian 422 and saves nothing', async () => {
    const department = await createDepartment(ctx.db, 'Отдел');
    const learner = await roleId(ctx.db, 'learner');
    const user = {
      first_name: 'Анна',
      last_name: 'Смирнова',
      login: 'anna@example.com',
      position: 'Инженер',
      department_id: department,
      role_id: learner,
      password: '',
      course_ids: [],
    };
    const category = (await admin.post('/api/courses/categories', { name: 'Категория' })).json().result.item.id;
    for (const ch of forbidden) {
      const evil = `Отчёт${ch}exe.pdf`;
      const calls = [
        admin.post('/api/courses/categories', { name: evil }),
        admin.put(`/api/courses/categories/${category}`, { name: evil }),
        admin.post('/api/courses/categories/update', { categories: [{ id: category, name: evil, sort_order: 0 }] }),
        admin.post('/api/courses', { name: evil }),
        admin.post('/api/admin/departments', { name: evil }),
        admin.post('/api/study-groups', { name: evil }),
        admin.post('/api/admin/users', { ...user, first_name: evil }),
        admin.post('/api/admin/users', { ...user, last_name: evil }),
        admin.post('/api/admin/users', { ...user, position: evil }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `${JSON.stringify(ch)} ${res.body}`).toBe(422);
        expect(res.json().result.message).toBe(UNSAFE);
      }
    }
    // Tabs and line breaks are control characters too in a one-line name.
    for (const name of ['Отдел\tпродаж', 'Отдел\nпродаж']) {
      expect((await admin.post('/api/admin/departments', { name })).statusCode).toBe(422);
    }
    expect(await ctx.db.kysely.selectFrom('course_categories').select('name').execute()).toEqual([
      { name: 'Категория' },
    ]);
    expect(await ctx.db.kysely.selectFrom('courses').select('id').execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('study_groups').select('id').execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('departments').select('name').execute()).toEqual([{ name: 'Отдел' }]);
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'anna@example.com').execute(),
    ).toEqual([]);
  });

  it('refuses them in the sign-in login, before any password check', async () => {
    const guest = new Client(ctx.app);
    const res = await guest.post('/login', { login: 'admin\u202e@example.com', password: 'x', remember: false });
    expect(res.statusCode).toBe(422);
    expect(res.json().result.message).toBe(UNSAFE);
    expect(
      await ctx.db.kysely.selectFrom('rate_limits').select('key').where('key', 'like', 'login:%').execute(),
    ).toEqual([]);
  });

  it('keeps ordinary text: Cyrillic, accents, typographic quotes, no-break spaces and emoji', async () => {
    const names = ['Охрана труда', 'Café «Ёлка» — 2026', 'O’Brien & Co', 'Отдел\u00a0продаж', 'Команда 👩‍💻'];
    for (const name of names) {
      const res = await admin.post('/api/courses/categories', { name });
      expect(res.statusCode, name).toBe(201);
      expect(res.json().result.item.name).toBe(name);
    }
  });
});
