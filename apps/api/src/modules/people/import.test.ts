import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  recordLesson,
  type TestContext,
} from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { cp1251, readWorkbook, xlsxOf } from '../../test/spreadsheets.js';
import { IMPORT_MESSAGES } from './service.js';

const HEADER = ['Фамилия', 'Имя', 'Email', 'Отдел', 'Должность', 'Роль'];

describe(`importing employees from a file (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminId: number;
  let sales: number;
  let salesCourse: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    ({
      client: admin,
      user: { id: adminId },
    } = await clientAs(ctx, 'admin', {
      email: 'admin@example.com',
      first_name: 'Ольга',
      last_name: 'Админова',
    }));
    salesCourse = await createCourse(ctx.db, 'Техника продаж');
    const created = await admin.post('/api/admin/departments', { name: 'Продажи', course_ids: [salesCourse] });
    sales = created.json().result.item.id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const upload = (data: Buffer, options: Record<string, string> = {}, name = 'сотрудники.xlsx') => {
    const { payload, headers } = multipart(options, { field: 'file', name, type: 'application/octet-stream', data });
    return admin.request('POST', '/api/admin/people-import', payload, headers);
  };
  const rowsOf = async (id: number, query = '?per_page=200') =>
    (await admin.get(`/api/admin/people-import/${id}/rows${query}`)).json();
  const people = () =>
    ctx.db.kysely
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        'users.email',
        'users.position',
        'departments.name as department',
        'roles.code as role',
        'users.deleted_at',
      ])
      .orderBy('users.email')
      .execute();

  it('offers the template as .xlsx (with how to fill it in) and as .csv', async () => {
    const xlsx = await admin.get('/api/admin/people-import/template');
    expect(xlsx.statusCode).toBe(200);
    const sheets = await readWorkbook(xlsx.rawPayload);
    expect(sheets.map((s) => s.name)).toEqual(['Сотрудники', 'Как заполнить']);
    expect(sheets[0]?.rows[0]?.map((c) => c.value)).toEqual([...HEADER, 'Email руководителя']);
    const csv = await admin.get('/api/admin/people-import/template?format=csv');
    expect(csv.body).toBe('\uFEFFФамилия;Имя;Email;Отдел;Должность;Роль;Email руководителя\r\n');
  });

  it('a dry run shows each row and writes nothing; applying writes exactly what it showed', async () => {
    await createUser(ctx.db, {
      role: 'learner',
      email: 'anna@example.com',
      first_name: 'Анна',
      last_name: 'Смирнова',
      department_id: sales,
    });
    const before = await people();
    const file = await xlsxOf([
      HEADER,
      ['Смирнова', 'Анна', 'ANNA@example.com', 'продажи', 'Старший менеджер', ''],
      ['Орлова', 'Вера', 'vera', 'Продажи', '', 'Руководитель'],
      ['Орлов', 'Борис', 'boris@example.com', 'Склад', '', ''],
      ['Петров', '', 'not-an-email@', 'Продажи', '', ''],
      ['Иванов', 'Иван', 'vera@example.com', 'Продажи', '', ''],
      ['Сидоров', 'Семён', 'semen@example.com', 'Продажи', '', 'Директор'],
    ]);
    const preview = await upload(file);
    expect(preview.statusCode).toBe(201);
    const batch = preview.json().data;
    expect(batch).toMatchObject({
      status: 'previewed',
      file_name: 'сотрудники.xlsx',
      counts: { create: 1, update: 1, unchanged: 0, delete: 0, error: 4 },
      new_departments: [],
    });
    expect(await people()).toEqual(before);

    const rows = await rowsOf(batch.id);
    expect(rows.total).toBe(6);
    expect(rows.items).toEqual([
      {
        line: 2,
        action: 'update',
        email: 'anna@example.com',
        name: 'Смирнова Анна',
        user_id: expect.any(Number),
        changes: [{ field: 'position', before: null, after: 'Старший менеджер' }],
        errors: [],
      },
      expect.objectContaining({ line: 3, action: 'create', email: 'vera@example.com', user_id: null }),
      expect.objectContaining({
        line: 4,
        action: 'error',
        errors: ['Отдел «Склад» не найден. Отметьте «Создавать отделы» или добавьте отдел в настройках школы'],
      }),
      expect.objectContaining({ line: 5, errors: ['Не заполнено: Имя', 'Некорректный email «not-an-email@»'] }),
      expect.objectContaining({ line: 6, errors: ['Email vera@example.com уже встречается в строке 3'] }),
      expect.objectContaining({
        line: 7,
        errors: ['Неизвестная роль «Директор». Допустимые роли: Администратор, Автор курсов, Руководитель, Ученик'],
      }),
    ]);
    const errorsOnly = await rowsOf(batch.id, '?action=error&per_page=2&page=2');
    expect(errorsOnly).toMatchObject({ total: 4, page: 2, per_page: 2 });
    expect(errorsOnly.items.map((r: { line: number }) => r.line)).toEqual([6, 7]);

    const applied = await admin.post(`/api/admin/people-import/${batch.id}/apply`);
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({
      result: { success: true, message: 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 0.' },
      data: { status: 'applied', applied_at: ctx.clock.now().toISOString() },
    });
    expect(await people()).toEqual([
      { email: 'admin@example.com', position: null, department: null, role: 'admin', deleted_at: null },
      {
        email: 'anna@example.com',
        position: 'Старший менеджер',
        department: 'Продажи',
        role: 'learner',
        deleted_at: null,
      },
      { email: 'vera@example.com', position: null, department: 'Продажи', role: 'manager', deleted_at: null },
    ]);
    // The new employee learns what their department learns; no mail went without 'send_welcome'.
    const vera = await ctx.db.kysely
      .selectFrom('users')
      .select(['id', 'must_change_password'])
      .where('email', '=', 'vera@example.com')
      .executeTakeFirstOrThrow();
    expect(vera.must_change_password).toBe(true);
    const enrolled = await ctx.db.kysely
      .selectFrom('enrollments')
      .select('course_id')
      .where('user_id', '=', vera.id)
      .execute();
    expect(enrolled).toEqual([{ course_id: salesCourse }]);
    expect(ctx.mailer.sent).toHaveLength(0);

    const audit = (await admin.get('/api/admin/audit?source=import')).json();
    expect(audit.total).toBe(2);
    expect(audit.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: 'Админова Ольга',
          source: 'import',
          action: 'user_updated',
          subject_name: 'Смирнова Анна',
          changes: [{ field: 'position', before: null, after: 'Старший менеджер' }],
        }),
        expect.objectContaining({
          action: 'user_created',
          subject: 'user',
          subject_id: vera.id,
          changes: [
            { field: 'last_name', before: null, after: 'Орлова' },
            { field: 'first_name', before: null, after: 'Вера' },
            { field: 'email', before: null, after: 'vera@example.com' },
            { field: 'department', before: null, after: 'Продажи' },
            { field: 'role', before: null, after: 'Руководитель' },
          ],
        }),
      ]),
    );
  });

  it('importing the same file again changes nothing and records nothing', async () => {
    const file = Buffer.concat([
      Buffer.from('\uFEFF'),
      Buffer.from('Фамилия;Имя;Email;Отдел;Должность\nОрлова;Вера;vera@example.com;Продажи;Кассир\n'),
    ]);
    const first = (await upload(file, {}, 'people.csv')).json().data;
    const firstApply = await admin.post(`/api/admin/people-import/${first.id}/apply`);
    expect(firstApply.statusCode).toBe(200);
    const written = await ctx.db.kysely.selectFrom('users').select(['id', 'updated_at']).orderBy('id').execute();
    const entries = (await admin.get('/api/admin/audit')).json().total;

    ctx.clock.advance(60_000);
    const again = (await upload(file, {}, 'people.csv')).json().data;
    expect(again.counts).toEqual({ create: 0, update: 0, unchanged: 1, delete: 0, error: 0 });
    const applied = await admin.post(`/api/admin/people-import/${again.id}/apply`);
    expect(applied.json().result.message).toBe('Изменения применены. Добавлено: 0, изменено: 0, удалено: 0.');
    expect(await ctx.db.kysely.selectFrom('users').select(['id', 'updated_at']).orderBy('id').execute()).toEqual(
      written,
    );
    expect((await admin.get('/api/admin/audit')).json().total).toBe(entries);
  });

  it('a dry run the company has moved past is refused, and a batch applies once', async () => {
    const anna = await createUser(ctx.db, { role: 'learner', email: 'anna@example.com', department_id: sales });
    const file = cp1251('Фамилия,Имя,Email,Отдел,Должность\nСмирнова,Анна,anna@example.com,Продажи,Кассир\n');
    const stale = (await upload(file, {}, 'people.csv')).json().data;
    const edited = await admin.put(`/api/admin/users/${anna.id}`, {
      first_name: 'Анна',
      last_name: 'Смирнова-Орлова',
      login: 'anna@example.com',
      department_id: sales,
      role_id: (await admin.get('/api/admin/roles'))
        .json()
        .result.items.find((r: { code: string }) => r.code === 'learner').id,
    });
    expect(edited.statusCode).toBe(200);
    const refused = await admin.post(`/api/admin/people-import/${stale.id}/apply`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().result).toEqual({ success: false, message: IMPORT_MESSAGES.outdated });
    expect((await people()).find((p) => p.email === 'anna@example.com')?.position).toBeNull();

    const fresh = (await upload(file, {}, 'people.csv')).json().data;
    expect((await admin.post(`/api/admin/people-import/${fresh.id}/apply`)).statusCode).toBe(200);
    const twice = await admin.post(`/api/admin/people-import/${fresh.id}/apply`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().result.message).toBe(IMPORT_MESSAGES.applied);
    expect((await admin.post('/api/admin/people-import/999999/apply')).statusCode).toBe(404);
  });

  it('creates the departments the file names when asked, and deletes the absent softly, never the importer', async () => {
    const leaving = await createUser(ctx.db, { role: 'learner', email: 'leaving@example.com', department_id: sales });
    const { lessonIds } = await createModuleWith(ctx.db, salesCourse, { lessons: 1 });
    const at = ctx.clock.now().toISOString();
    await recordLesson(ctx.db, leaving.id, lessonIds[0] ?? 0, at, at);
    const session = new Client(ctx.app);
    await session.signIn(leaving.email);
    const file = await xlsxOf([
      HEADER,
      ['Орлов', 'Борис', 'boris@example.com', 'Склад', '', ''],
      ['Орлова', 'Вера', 'vera@example.com', 'СКЛАД', '', ''],
    ]);
    const batch = (await upload(file, { create_departments: 'true', delete_missing: 'true' })).json().data;
    expect(batch.counts).toEqual({ create: 2, update: 0, unchanged: 0, delete: 1, error: 1 });
    expect(batch.new_departments).toEqual(['Склад']);
    const missing = (await rowsOf(batch.id)).items.slice(2);
    expect(missing).toEqual([
      expect.objectContaining({
        line: null,
        action: 'error',
        email: 'admin@example.com',
        errors: ['Вы не можете удалить свою собственную учетную запись'],
      }),
      expect.objectContaining({ line: null, action: 'delete', email: 'leaving@example.com', user_id: leaving.id }),
    ]);
    await admin.post(`/api/admin/people-import/${batch.id}/apply`);
    const departments = await ctx.db.kysely.selectFrom('departments').select('name').orderBy('name').execute();
    expect(departments.map((d) => d.name)).toEqual(['Продажи', 'Склад']);
    const gone = await ctx.db.kysely
      .selectFrom('users')
      .select(['deleted_at'])
      .where('id', '=', leaving.id)
      .executeTakeFirstOrThrow();
    expect(gone.deleted_at).toBe(ctx.clock.now().toISOString());
    expect((await session.get('/api/check-auth')).json().authenticated).toBe(false);
    expect(await people()).toContainEqual(expect.objectContaining({ email: 'admin@example.com', deleted_at: null }));
    // The deleted employee's learning record stays, with its owner.
    const kept = await ctx.db.kysely.selectFrom('lesson_progress').select('user_id').execute();
    expect(kept).toEqual([{ user_id: leaving.id }]);
  });

  it('a person moved to another department leaves its courses; a new name is what the search finds', async () => {
    await admin.post('/api/admin/departments', { name: 'Склад', course_ids: [] });
    const anna = await createUser(ctx.db, {
      role: 'learner',
      email: 'anna@example.com',
      first_name: 'Анна',
      last_name: 'Смирнова',
      department_id: sales,
    });
    const boris = await createUser(ctx.db, {
      role: 'learner',
      email: 'boris@example.com',
      first_name: 'Борис',
      last_name: 'Орлов',
      department_id: sales,
    });
    const enrolled = async (id: number) =>
      (await ctx.db.kysely.selectFrom('enrollments').select('course_id').where('user_id', '=', id).execute()).map(
        (r) => r.course_id,
      );
    expect(await enrolled(anna.id)).toEqual([salesCourse]);
    ctx.clock.advance(60_000);
    const file = await xlsxOf([
      HEADER,
      ['Смирнова', 'Анна', 'anna@example.com', 'Склад', '', ''],
      ['Орловский', 'Борис', 'boris@example.com', 'Продажи', 'Водитель', 'Автор курсов'],
    ]);
    const batch = (await upload(file)).json().data;
    expect(batch.counts).toMatchObject({ update: 2 });
    await admin.post(`/api/admin/people-import/${batch.id}/apply`);
    expect(await enrolled(anna.id)).toEqual([]);
    expect(await enrolled(boris.id)).toEqual([salesCourse]);
    const rows = await ctx.db.kysely
      .selectFrom('users')
      .select(['id', 'last_name', 'position', 'department_assigned_at', 'updated_at'])
      .where('id', 'in', [anna.id, boris.id])
      .orderBy('id')
      .execute();
    const now = ctx.clock.now().toISOString();
    expect(rows).toEqual([
      { id: anna.id, last_name: 'Смирнова', position: null, department_assigned_at: now, updated_at: now },
      { id: boris.id, last_name: 'Орловский', position: 'Водитель', department_assigned_at: null, updated_at: now },
    ]);
    const found = (await admin.get('/api/admin/users?search=орловск')).json().items.map((u: { id: number }) => u.id);
    expect(found).toEqual([boris.id]);
    expect(await people()).toContainEqual(expect.objectContaining({ email: 'boris@example.com', role: 'author' }));
  });

  it('invites the new employees once, after the import, each with a password that signs them in', async () => {
    const file = await xlsxOf([HEADER, ['Орлова', 'Вера', 'vera@example.com', 'Продажи', '', '']]);
    const batch = (await upload(file, { send_welcome: 'true' })).json().data;
    await admin.post(`/api/admin/people-import/${batch.id}/apply`);
    expect(ctx.mailer.sent).toHaveLength(0);
    expect(await ctx.app.jobs.sendInvitations()).toBe(1);
    await ctx.app.jobs.deliverMail();
    await ctx.app.jobs.mailSettled();
    expect(await ctx.app.jobs.sendInvitations()).toBe(0);
    await ctx.app.jobs.deliverMail();
    await ctx.app.jobs.mailSettled();
    expect(ctx.mailer.sent.map((m) => [m.to, m.audit.kind])).toEqual([['vera@example.com', 'new_user_password']]);
    const password = /Пароль: (\S+)/.exec(ctx.mailer.sent[0]?.text ?? '')?.[1] ?? '';
    const vera = new Client(ctx.app);
    const signedIn = await vera.post('/login', { login: 'vera@example.com', password, remember: false });
    expect(signedIn.json().user).toMatchObject({ authenticated: true, must_change_password: true });
  });

  it('keeps a dry run’s rows a week; its head, with the counts, stays', async () => {
    const file = await xlsxOf([HEADER, ['Орлова', 'Вера', 'vera@example.com', 'Продажи', '', '']]);
    const old = (await upload(file)).json().data;
    expect((await rowsOf(old.id)).total).toBe(1);
    // Made eight days ago (moving the clock would end the admin's session).
    const eightDaysAgo = new Date(ctx.clock.now().getTime() - 8 * 24 * 3600_000).toISOString();
    await ctx.db.kysely
      .updateTable('people_batches')
      .set({ created_at: eightDaysAgo })
      .where('id', '=', old.id)
      .execute();
    const fresh = (await upload(file)).json().data;
    expect((await rowsOf(old.id)).total).toBe(0);
    expect((await admin.get(`/api/admin/people-import/${old.id}`)).json().data.counts).toMatchObject({ create: 1 });
    expect((await rowsOf(fresh.id)).total).toBe(1);
  });

  it('refuses what it cannot import, with a message and nothing written', async () => {
    const count = async () =>
      (
        await ctx.db.kysely
          .selectFrom('people_batches')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    expect((await admin.post('/api/admin/people-import', {})).statusCode).toBe(422);
    const huge = await upload(Buffer.alloc(20 * 1024 * 1024 + 1, 0x41), {}, 'big.csv');
    expect(huge.statusCode).toBe(413);
    expect(huge.json().result.message).toBe('Файл больше 20 МБ: разделите его на несколько файлов');
    const corrupt = await upload(Buffer.from('PK\u0003\u0004garbage'), {}, 'broken.xlsx');
    expect(corrupt.statusCode).toBe(422);
    expect(corrupt.json().result.message).toBe('Файл повреждён: откройте его в Excel и сохраните заново');
    expect(Number(await count())).toBe(0);

    const { client: learner } = await clientAs(ctx, 'learner');
    const file = await xlsxOf([HEADER, ['Орлова', 'Вера', 'vera@example.com', 'Продажи', '', '']]);
    const { payload, headers } = multipart(
      {},
      { field: 'file', name: 'a.xlsx', type: 'application/octet-stream', data: file },
    );
    expect((await learner.request('POST', '/api/admin/people-import', payload, headers)).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/people-import/template')).statusCode).toBe(401);
    expect((await learner.get('/api/admin/audit')).statusCode).toBe(403);
    expect(adminId).toBeGreaterThan(0);
  });
});
