import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import type { AdminUsersQuery } from '@lms/contract';
import { EnrollmentRepository } from '../enrollment/repository.js';
import { UserPages } from './pages.js';
import { UsersRepository } from './repository.js';
import {
  Client,
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createUser,
  dialectName,
  queriesDuring,
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

  it('pages, searches (name or email, any case, Cyrillic, wildcards literal) and sorts on the server', async () => {
    const names = [
      ['Анна', 'Яковлева', 'anna@example.com'],
      ['Борис', 'Иванов', 'boris@example.com'],
      ['Вера', 'Иванова', 'vera_100%@example.com'],
      ['Глеб', 'Смирнов', 'gleb@example.com'],
    ] as const;
    for (const [first_name, last_name, email] of names)
      await ctx.db.kysely
        .insertInto('users')
        .values({ first_name, last_name, email, password_hash: 'x', role_id: learnerRole, department_id: dep })
        .execute();
    const page = async (query: string) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { email: string; name: string }[]; total: number; page: number; per_page: number };
    };
    // Without parameters: the spec's full list, no paging fields.
    const all = (await admin.get('/api/admin/users')).json();
    expect(all.items).toHaveLength(5);
    expect(all.total).toBeUndefined();

    const first = await page('page=1&per_page=2');
    expect(first).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(first.items.map((u) => u.email)).toEqual(['boris@example.com', 'vera_100%@example.com']);
    const third = await page('page=3&per_page=2');
    expect(third.items).toHaveLength(1);

    const found = await page('search=ИВАНОВ');
    expect(found.total).toBe(2);
    expect(found.items.map((u) => u.email).sort()).toEqual(['boris@example.com', 'vera_100%@example.com']);
    expect((await page('search=%25')).items.map((u) => u.email)).toEqual(['vera_100%@example.com']);
    expect((await page('search=_')).items.map((u) => u.email)).toEqual(['vera_100%@example.com']);
    expect((await page('search=Борис Иванов')).total).toBe(1);
    expect((await page('search=GLEB@')).total).toBe(1);
    expect((await page('search=нет такого')).total).toBe(0);

    const byEmailDesc = await page('sort=email&direction=desc&per_page=1');
    expect(byEmailDesc.items[0]?.email).toBe('vera_100%@example.com');
    const byName = await page('sort=name&per_page=10');
    expect(byName.items.map((u) => u.email).slice(0, 2)).toEqual(['boris@example.com', 'vera_100%@example.com']);

    // The total without a search is the kept count: it follows deletion through the API, soft
    // deletion and restoring written directly, inserts and hard deletes.
    const boris = (
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'boris@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    expect((await admin.delete(`/api/admin/users/${boris}`)).statusCode).toBe(200);
    expect((await page('per_page=2')).total).toBe(4);
    const gleb = (
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'gleb@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    await ctx.db.kysely
      .updateTable('users')
      .set({ deleted_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', gleb)
      .execute();
    await ctx.db.kysely.updateTable('users').set({ position: 'Кладовщик' }).where('id', '=', gleb).execute();
    expect((await page('per_page=2')).total).toBe(3);
    await ctx.db.kysely.updateTable('users').set({ deleted_at: null }).where('id', '=', gleb).execute();
    const temp = await ctx.db.kysely
      .insertInto('users')
      .values({
        first_name: 'Временный',
        last_name: 'Сотрудник',
        email: 'temp@example.com',
        password_hash: 'x',
        role_id: learnerRole,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await page('per_page=2')).total).toBe(5);
    await ctx.db.kysely.deleteFrom('users').where('id', '=', temp.id).execute();
    const live = await ctx.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect((await page('per_page=2')).total).toBe(Number(live.n));
    expect(Number(live.n)).toBe(4);

    for (const bad of ['page=0', 'per_page=201', 'sort=password_hash', 'direction=up', 'page=x'])
      expect((await admin.get(`/api/admin/users?${bad}`)).statusCode, bad).toBe(422);
  });

  it('pages in every order and direction, with and without a search, as one list cut into pages', async () => {
    const other = await createDepartment(ctx.db, 'Бухгалтерия');
    const roles = [learnerRole, await roleId(ctx.db, 'manager'), await roleId(ctx.db, 'author')];
    // Ties in every key, users without a department or activity: the order must still be total.
    for (let i = 0; i < 23; i++)
      await ctx.db.kysely
        .insertInto('users')
        .values({
          first_name: ['Анна', 'Борис', 'Вера'][i % 3] as string,
          last_name: ['Иванова', 'Петров', 'Сидоров', 'Иванова'][i % 4] as string,
          email: `user${(i * 7) % 23}@example.com`,
          password_hash: 'x',
          role_id: roles[i % 3] as number,
          department_id: [dep, other, null][i % 3] ?? null,
          last_activity_at: i % 5 === 0 ? null : `2026-0${1 + (i % 4)}-01T00:00:00.000Z`,
        })
        .execute();
    const ids = async (query: string) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: { id: number }[] }).items.map((u) => u.id);
    };
    const ascending = new Map<string, number[]>();
    for (const sort of ['name', 'email', 'department', 'role', 'last_activity'])
      for (const direction of ['asc', 'desc'])
        for (const search of ['', '&search=иванова']) {
          const query = `sort=${sort}&direction=${direction}${search}`;
          const whole = await ids(`${query}&page=1&per_page=200`);
          expect(whole.length, query).toBe(search ? 11 : 24);
          const pages: number[] = [];
          for (let page = 1; page <= Math.ceil(whole.length / 5); page++)
            pages.push(...(await ids(`${query}&page=${page}&per_page=5`)));
          expect(pages, query).toEqual(whole);
          // Each order and direction is its own statement: the other direction must not answer for it.
          const asc = ascending.get(`${sort}${search}`);
          if (!asc) ascending.set(`${sort}${search}`, whole);
          else if (sort === 'department' || sort === 'last_activity') expect(whole, query).not.toEqual(asc);
          else expect(whole, query).toEqual([...asc].reverse());
        }
  });

  it('a page asked again equals a fresh read after any change of what it shows, and reads only last activity', async () => {
    const other = await createDepartment(ctx.db, 'Бухгалтерия');
    for (let i = 0; i < 6; i++)
      await ctx.db.kysely
        .insertInto('users')
        .values({
          first_name: `Имя${i}`,
          last_name: `Фамилия${i}`,
          email: `u${i}@example.com`,
          password_hash: 'x',
          role_id: learnerRole,
          department_id: i % 2 === 0 ? dep : other,
        })
        .execute();
    const k = ctx.db.kysely;
    const someone = async () =>
      (await k.selectFrom('users').select('id').where('email', '=', 'u3@example.com').executeTakeFirstOrThrow()).id;
    const pages = ['page=1&per_page=4', 'page=2&per_page=4&sort=department&direction=desc', 'search=фамилия'];
    // Read afresh by a reader that keeps nothing, as the route would answer it.
    const uow = new UnitOfWork(k, ctx.db.kind);
    const reader = new UserPages(uow, new UsersRepository(uow));
    const expectFresh = async (what: string) => {
      for (const query of pages) {
        const q = Object.fromEntries(new URLSearchParams(query));
        const fresh = await reader.read({
          ...q,
          page: q.page ? Number(q.page) : undefined,
          per_page: q.per_page ? Number(q.per_page) : undefined,
        } as AdminUsersQuery);
        const res = await admin.get(`/api/admin/users?${query}`);
        expect(res.json(), `${what}: ${query}`).toEqual(
          JSON.parse(JSON.stringify({ result: { success: true }, ...fresh })),
        );
      }
    };
    const changes: [string, () => Promise<unknown>][] = [
      [
        'renamed',
        async () =>
          k
            .updateTable('users')
            .set({ last_name: 'Аардварк' })
            .where('id', '=', await someone())
            .execute(),
      ],
      [
        'department renamed',
        () => k.updateTable('departments').set({ name: 'Архив' }).where('id', '=', other).execute(),
      ],
      ['role renamed', () => k.updateTable('roles').set({ name: 'Слушатель' }).where('id', '=', learnerRole).execute()],
      [
        'moved',
        async () =>
          k
            .updateTable('users')
            .set({ department_id: dep })
            .where('id', '=', await someone())
            .execute(),
      ],
      [
        'active',
        async () =>
          k
            .updateTable('users')
            .set({ last_activity_at: '2026-11-01T00:00:00.000Z' })
            .where('id', '=', await someone())
            .execute(),
      ],
      [
        'deleted',
        async () =>
          k
            .updateTable('users')
            .set({ deleted_at: '2026-11-02T00:00:00.000Z' })
            .where('id', '=', await someone())
            .execute(),
      ],
      ['added', () => admin.post('/api/admin/users', newUser({ last_name: 'Аалто', login: 'aalto@example.com' }))],
      // A name holding the text the kept page is cut at (pages.ts): such a page is not kept, still right.
      [
        'named like the cut',
        async () =>
          k
            .updateTable('users')
            .set({ first_name: 'lms-kept-page-activity-slot' })
            .where('email', '=', 'aalto@example.com')
            .execute(),
      ],
      [
        'active again',
        async () =>
          k
            .updateTable('users')
            .set({ last_activity_at: null })
            .where('id', '=', await someone())
            .execute(),
      ],
      [
        'renamed back',
        () => k.updateTable('users').set({ first_name: 'Оля' }).where('email', '=', 'aalto@example.com').execute(),
      ],
    ];
    await expectFresh('at first');
    for (const [what, change] of changes) {
      await change();
      await expectFresh(what);
    }
    // Unchanged, a page is read again as its rows' last activity only (and the session lookup).
    const queries = await queriesDuring(() => admin.get(`/api/admin/users?${pages[0]}`));
    expect(queries, queries.join('\n')).toHaveLength(2);
    expect(queries[1]).toMatch(/last_activity_at/);
  });

  it('refuses a duplicate email, case-insensitively, and changes nothing', async () => {
    await admin.post('/api/admin/users', newUser());
    const dup = await admin.post('/api/admin/users', newUser({ login: 'OLGA@example.com' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().result.message).toBe('Пользователь с таким email уже существует');
    expect((await admin.get('/api/admin/users')).json().items).toHaveLength(2);
  });

  it('validates required fields with the spec texts', async () => {
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

  it('is for admins only: others get 403 with the spec text', async () => {
    for (const role of ['learner', 'manager', 'author'] as const) {
      const { client } = await clientAs(ctx, role);
      const res = await client.get('/api/admin/users');
      expect(res.statusCode).toBe(403);
      expect(res.json().result.message).toBe('Доступ запрещен');
      expect((await client.post('/api/admin/users', newUser())).statusCode).toBe(403);
    }
  });
});
