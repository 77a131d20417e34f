import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { EnrollmentRepository } from '../enrollment/repository.js';
import {
  Client,
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createUser,
  dialectName,
  recordAttempt,
  recordLesson,
  roleId,
  type TestContext,
  createTestApp,
} from '../../test/harness.js';

describe(`settings: employees (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminId: number;
  let dep: number;
  let learnerRole: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    const a = await clientAs(ctx, 'admin');
    admin = a.client;
    adminId = a.user.id;
    dep = await createDepartment(ctx.db, 'Отдел продаж');
    learnerRole = await roleId(ctx.db, 'learner');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const newUser = (over: Record<string, unknown> = {}) => ({
    first_name: 'Ольга',
    last_name: 'Кузнецова',
    login: 'olga@example.com',
    password: '',
    department_id: dep,
    role_id: learnerRole,
    course_ids: [],
    position: 'Менеджер',
    ...over,
  });

  it('creates an employee with a generated password mailed to them; they can sign in', async () => {
    const course = await createCourse(ctx.db, 'Охрана труда');
    const res = await admin.post('/api/admin/users', newUser({ course_ids: [course] }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.result).toEqual({ success: true, message: 'Пользователь Кузнецова Ольга успешно добавлен' });
    const mail = ctx.mailer.last('olga@example.com');
    expect(mail?.text).toContain('Логин: olga@example.com');
    const password = /Пароль: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    await new Client(ctx.app).signIn('olga@example.com', password);

    const detail = (await admin.get(`/api/admin/users/${body.data.id}`)).json().result.data;
    expect(detail).toMatchObject({
      first_name: 'Ольга',
      last_name: 'Кузнецова',
      name: 'Кузнецова Ольга',
      email: 'olga@example.com',
      login: 'olga@example.com',
      position: 'Менеджер',
      department: { id: dep, name: 'Отдел продаж' },
      roles: { id: learnerRole, name: 'Ученик' },
      courses: [{ id: course, name: 'Охрана труда' }],
    });
  });

  it('lists employees with department, role, email and last activity', async () => {
    await admin.post('/api/admin/users', newUser());
    const res = await admin.get('/api/admin/users');
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items).toHaveLength(2);
    const olga = items.find((u: { email: string }) => u.email === 'olga@example.com');
    expect(olga).toMatchObject({
      department: { id: dep, name: 'Отдел продаж' },
      roles: { name: 'Ученик' },
      last_activity: null,
    });
    const me = items.find((u: { id: number }) => u.id === adminId);
    expect(me.last_activity).toBe(ctx.clock.now().toISOString());
  });

  it('refuses a duplicate email, case-insensitively, and changes nothing', async () => {
    await admin.post('/api/admin/users', newUser());
    const dup = await admin.post('/api/admin/users', newUser({ login: 'OLGA@example.com' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().result.message).toBe('Пользователь с таким email уже существует');
    expect((await admin.get('/api/admin/users')).json().items).toHaveLength(2);
  });

  it('validates required fields with the documented texts', async () => {
    const noRole = await admin.post('/api/admin/users', newUser({ role_id: null }));
    expect(noRole.statusCode).toBe(422);
    expect(noRole.json().result.message).toBe('Пожалуйста, выберите роль и отдел');
    const noName = await admin.post('/api/admin/users', newUser({ first_name: ' ' }));
    expect(noName.json().result.message).toBe('Пожалуйста, заполните все поля');
    const badEmail = await admin.post('/api/admin/users', newUser({ login: 'olga@' }));
    expect(badEmail.json().result.message).toBe('Некорректный email');
    const unknownDep = await admin.post('/api/admin/users', newUser({ department_id: 9999 }));
    expect(unknownDep.json().result.message).toBe('Пожалуйста, выберите роль и отдел');
    const unknownCourse = await admin.post('/api/admin/users', newUser({ course_ids: [9999] }));
    expect(unknownCourse.statusCode).toBe(422);
    expect(ctx.mailer.sent).toHaveLength(0);
    expect((await admin.get('/api/admin/users')).json().items).toHaveLength(1);
  });

  it('updates an employee; an admin cannot change their own role', async () => {
    const id = (await admin.post('/api/admin/users', newUser())).json().data.id;
    const res = await admin.put(`/api/admin/users/${id}`, {
      first_name: 'Ольга',
      last_name: 'Иванова',
      login: 'olga.ivanova@example.com',
      department_id: dep,
      role_id: await roleId(ctx.db, 'manager'),
      position: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.message).toBe('Пользователь Иванова Ольга успешно обновлен');
    const detail = (await admin.get(`/api/admin/users/${id}`)).json().result.data;
    expect(detail).toMatchObject({
      email: 'olga.ivanova@example.com',
      roles: { name: 'Руководитель' },
      position: null,
    });
    const self = await admin.put(`/api/admin/users/${adminId}`, {
      first_name: 'А',
      last_name: 'Б',
      login: 'x@example.com',
      department_id: dep,
      role_id: learnerRole,
    });
    expect(self.statusCode).toBe(422);
  });

  it('deletes an employee and ends their sessions; not oneself', async () => {
    const victim = await createUser(ctx.db, { role: 'learner' });
    const session = new Client(ctx.app);
    await session.signIn(victim.email);
    const res = await admin.delete(`/api/admin/users/${victim.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.message).toBe('Пользователь Петров Иван успешно удален');
    expect((await session.get('/api/menu')).statusCode).toBe(401);
    const self = await admin.delete(`/api/admin/users/${adminId}`);
    expect(self.statusCode).toBe(422);
    expect(self.json().result.message).toBe('Вы не можете удалить свою собственную учетную запись');
    expect((await admin.delete(`/api/admin/users/${victim.id}`)).statusCode).toBe(404);
  });

  it("keeps a deleted employee's learning records; the account is gone and its address free", async () => {
    const course = await createCourse(ctx.db, 'Курс');
    const { lessonIds, testIds } = await createModuleWith(ctx.db, course, { lessons: 1, tests: 1 });
    const victim = await createUser(ctx.db, { role: 'learner', department_id: dep, email: 'gone@example.com' });
    await admin.post('/api/admin/user-courses/attach', { user_id: victim.id, course_ids: [course] });
    await recordLesson(ctx.db, victim.id, lessonIds[0] as number, null, '2026-01-10T00:00:00.000Z');
    await recordAttempt(ctx.db, victim.id, testIds[0] as number, 1, '2026-01-11T00:00:00.000Z', true);

    expect((await admin.delete(`/api/admin/users/${victim.id}`)).statusCode).toBe(200);

    const k = ctx.db.kysely;
    expect(await k.selectFrom('lesson_progress').select('user_id').execute()).toEqual([{ user_id: victim.id }]);
    expect(await k.selectFrom('test_attempts').select('user_id').execute()).toEqual([{ user_id: victim.id }]);
    const list = (await admin.get('/api/admin/users')).json().items as { id: number }[];
    expect(list.map((u) => u.id)).not.toContain(victim.id);
    expect((await admin.get(`/api/admin/users/${victim.id}`)).statusCode).toBe(404);
    expect(await new EnrollmentRepository(new UnitOfWork(k, ctx.db.kind)).list({ userIds: [victim.id] })).toEqual([]);
    const signIn = await new Client(ctx.app).post('/login', { login: victim.email, password: victim.password });
    expect(signIn.statusCode).toBe(422);
    expect((await admin.post('/api/admin/users', newUser({ login: 'gone@example.com' }))).statusCode).toBe(201);
  });

  it('never leaves the company without an administrator', async () => {
    const other = await clientAs(ctx, 'admin');
    // Each admin removes the other at the same moment: one of the two must be refused.
    const answers = await Promise.all([
      admin.delete(`/api/admin/users/${other.user.id}`),
      other.client.delete(`/api/admin/users/${adminId}`),
    ]);
    const admins = await ctx.db.kysely
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.code', '=', 'admin')
      .execute();
    expect(admins.length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });

  it('resets a password: a new one is mailed and sessions end', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const session = new Client(ctx.app);
    await session.signIn(user.email);
    const res = await admin.post(`/api/admin/users/${user.id}/reset-password`);
    expect(res.json().result).toEqual({
      success: true,
      message: 'Пароль успешно сброшен и отправлен на email пользователя',
    });
    expect((await session.get('/api/menu')).statusCode).toBe(401);
    const password = /Новый пароль: (\S+)/.exec(ctx.mailer.last(user.email)?.text ?? '')?.[1] ?? '';
    await new Client(ctx.app).signIn(user.email, password);
  });

  it('attaches and detaches direct courses', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const [a, b] = [await createCourse(ctx.db, 'А-курс'), await createCourse(ctx.db, 'Б-курс')];
    expect(
      (await admin.post('/api/admin/user-courses/attach', { user_id: user.id, course_ids: [a, b] })).statusCode,
    ).toBe(200);
    expect((await admin.get(`/api/admin/users/${user.id}/courses`)).json().result.data).toEqual([
      { id: a, name: 'А-курс' },
      { id: b, name: 'Б-курс' },
    ]);
    await admin.post('/api/admin/user-courses/detach', { user_id: user.id, course_ids: [a] });
    expect((await admin.get(`/api/admin/users/${user.id}/courses`)).json().result.data).toEqual([
      { id: b, name: 'Б-курс' },
    ]);
    const enrolled = await new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind)).list({
      userIds: [user.id],
    });
    expect(enrolled.map((e) => e.course_id)).toEqual([b]);
  });

  it('answers 4xx, never 500, to ids beyond the database integer range', async () => {
    const huge = 99_999_999_999;
    const answers = [
      await admin.get(`/api/admin/users/${huge}`),
      await admin.get('/api/admin/users/abc'),
      await admin.post('/api/admin/user-courses/attach', { user_id: huge, course_ids: [1] }),
      await admin.post('/api/admin/users', newUser({ course_ids: [huge] })),
      await admin.post('/api/admin/users', newUser({ department_id: huge })),
      await admin.post('/api/admin/departments', { name: 'X', sort_order: huge }),
      await admin.post('/api/courses', { name: 'X', category_id: huge }),
      await admin.post('/api/courses/categories/update', { categories: [{ id: 1, name: 'X', sort_order: huge }] }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([422, 422, 422, 422, 422, 422, 422, 422]);
  });

  it('roles come from the server list', async () => {
    const res = await admin.get('/api/admin/roles');
    expect(res.json().result.items.map((r: { name: string }) => r.name)).toEqual([
      'Администратор',
      'Автор курсов',
      'Руководитель',
      'Ученик',
    ]);
  });

  it('is for admins only: others get 403 with the documented text', async () => {
    for (const role of ['learner', 'manager', 'author'] as const) {
      const { client } = await clientAs(ctx, role);
      const res = await client.get('/api/admin/users');
      expect(res.statusCode).toBe(403);
      expect(res.json().result.message).toBe('Доступ запрещен');
      expect((await client.post('/api/admin/users', newUser())).statusCode).toBe(403);
    }
  });
});
