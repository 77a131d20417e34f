import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
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
    // Zero-width characters hide in a name: a space that is not one, a joiner outside an emoji.
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\ufeff',
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
    const course = await createCourse(ctx.db, 'Курс');
    const { moduleId, lessonIds, testIds } = await createModuleWith(ctx.db, course, { lessons: 1, tests: 1 });
    const stored = async () => ({
      courses: await ctx.db.kysely.selectFrom('courses').select(['title', 'description']).execute(),
      modules: await ctx.db.kysely.selectFrom('modules').select('name').execute(),
      lessons: await ctx.db.kysely.selectFrom('lessons').select('name').execute(),
      tests: await ctx.db.kysely.selectFrom('tests').select('name').execute(),
    });
    const before = await stored();
    for (const ch of forbidden) {
      const evil = `Отчёт${ch}exe.pdf`;
      const calls = [
        admin.put(`/api/courses/${course}`, { title: evil }),
        admin.put(`/api/courses/${course}`, { description: `Строка\n${evil}` }),
        admin.post('/api/courses/modules', { course_id: course, name: evil }),
        admin.put(`/api/courses/${course}/modules/${moduleId}`, { name: evil }),
        admin.post('/api/courses/lessons', { module_id: moduleId, name: evil }),
        admin.put(`/api/courses/${course}/lessons/${lessonIds[0]}`, { name: evil }),
        admin.post('/api/courses/tests', { course_id: course, module_id: moduleId, name: evil }),
        admin.put(`/api/courses/${course}/tests/${testIds[0]}`, { name: evil }),
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
    // Tabs and line breaks are control characters too in a one-line name; a joiner must join two emoji.
    for (const name of ['Отдел\tпродаж', 'Отдел\nпродаж', 'Отдел\u2028продаж', 'Отдел\u200d👩', '👩\u200dотдел']) {
      expect((await admin.post('/api/admin/departments', { name })).statusCode).toBe(422);
    }
    expect(await ctx.db.kysely.selectFrom('course_categories').select('name').execute()).toEqual([
      { name: 'Категория' },
    ]);
    expect(await stored()).toEqual(before);
    expect(await ctx.db.kysely.selectFrom('study_groups').select('id').execute()).toEqual([]);
    expect(await ctx.db.kysely.selectFrom('departments').select('name').execute()).toEqual([{ name: 'Отдел' }]);
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'anna@example.com').execute(),
    ).toEqual([]);
  });

  it('strips them from the names of uploaded files and of the files a lesson names', async () => {
    const course = await createCourse(ctx.db, 'Курс');
    const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 1 });
    const lesson = lessonIds[0] as number;
    const boundary = 'n4mesB0undary';
    const upload = (name: string) =>
      admin.post(
        '/api/upload-file',
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="lesson_id"\r\n\r\n${lesson}\r\n`),
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          Buffer.from('содержимое'),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
      );
    // The control characters a multipart header can carry at all (no line breaks).
    // eslint-disable-next-line no-control-regex -- the control characters are exactly what is left out
    const inName = forbidden.filter((ch) => ch.length === 1 && !/[\u0000\u000a\u000d]/.test(ch));
    for (const ch of inName) {
      const res = await upload(`Отчёт${ch}fdp.exe`);
      expect(res.statusCode, `${JSON.stringify(ch)} ${res.body}`).toBe(200);
      const { original_filename, file_path } = res.json().result;
      expect([JSON.stringify(ch), original_filename]).toEqual([JSON.stringify(ch), 'Отчётfdp.exe']);
      const row = await ctx.db.kysely
        .selectFrom('files')
        .select('original_filename')
        .where('path', '=', file_path)
        .executeTakeFirstOrThrow();
      expect(row.original_filename).toBe('Отчётfdp.exe');
    }
    // A name made only of them keeps a name.
    expect((await upload('\u202e\u200b')).json().result.original_filename).toBe('file');
    // The name a lesson's file block carries is the client's: cleaned the same way.
    const { file_path } = (await upload('план.pdf')).json().result;
    const saved = await admin.put(`/api/courses/${course}/lessons/${lesson}/contents`, {
      contents: [{ id: 'n', type: 'file', file_path, original_filename: 'план\u202efdp.exe', sort_order: 0 }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const blocks = await ctx.db.kysely
      .selectFrom('lesson_contents')
      .select('original_filename')
      .where('lesson_id', '=', lesson)
      .execute();
    expect(blocks).toEqual([{ original_filename: 'планfdp.exe' }]);
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
    // Emoji joined by U+200D (after a skin tone or a presentation mark too) are no stray joiners.
    const names = [
      'Охрана труда',
      'Café «Ёлка» — 2026',
      'O’Brien & Co',
      'Отдел\u00a0продаж',
      'Команда 👩‍💻',
      'Команда 👩🏽‍💻 ❤️‍🔥 🏳️‍🌈',
    ];
    for (const name of names) {
      const res = await admin.post('/api/courses/categories', { name });
      expect(res.statusCode, name).toBe(201);
      expect(res.json().result.item.name).toBe(name);
    }
  });
});
