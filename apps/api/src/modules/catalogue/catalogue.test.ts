import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  createModuleWith,
  createUser,
  dialectName,
  recordAttempt,
  recordLesson,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`catalogue (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const createCategory = async (name: string) =>
    (await admin.post('/api/courses/categories', { name })).json().result.item;

  it('creates categories and courses; lists categories with cards and the uncategorised pseudo-category', async () => {
    const cat = await createCategory('Обязательное');
    expect(cat).toMatchObject({ name: 'Обязательное', sort_order: 0 });
    const created = await admin.post('/api/courses', { name: 'Охрана труда', category_id: cat.id });
    expect(created.statusCode).toBe(201);
    expect(created.json().result).toMatchObject({
      success: true,
      message: 'Курс успешно создан',
      item: { name: 'Охрана труда' },
    });
    const loose = await admin.post('/api/courses', {});
    expect(loose.json().result.item).toMatchObject({ name: 'Новый курс', category_id: null });
    const empty = await createCategory('Пустая');

    const items = (await admin.get('/api/courses')).json().result.items;
    expect(items.map((c: { id: number; name: string }) => [c.id, c.name])).toEqual([
      [cat.id, 'Обязательное'],
      [empty.id, 'Пустая'],
      [-1, 'Без категории'],
    ]);
    expect(items[0].items[0]).toEqual({
      id: created.json().result.item.id,
      name: 'Охрана труда',
      description: '',
      image: null,
      url: `/management/constructor/${created.json().result.item.id}`,
      is_published: false,
      category_id: cat.id,
      groups: 0,
      students: 0,
      deadline: null,
      deadline_status: null,
      lessons: { total: 0, completed: 0 },
      test: { total: 0, completed: 0 },
      progress: 0,
      complete: false,
    });
  });

  it('counts groups and students per course', async () => {
    const course = await createCourse(ctx.db, 'Курс А');
    const u1 = await createUser(ctx.db, { role: 'learner' });
    const u2 = await createUser(ctx.db, { role: 'learner' });
    await admin.post('/api/study-groups', { name: 'Г1', user_ids: [u1.id, u2.id], course_ids: [course] });
    await admin.post('/api/study-groups', { name: 'Г2', user_ids: [u1.id], course_ids: [course] });
    await admin.post('/api/admin/user-courses/attach', { user_id: u1.id, course_ids: [course] });
    const card = (await admin.get('/api/courses')).json().result.items.find((c: { id: number }) => c.id === -1)
      .items[0];
    expect(card).toMatchObject({ groups: 2, students: 2 });
  });

  it("is everyone's text for a viewer enrolled nowhere, follows every change, and gives an enrolled viewer their own figures", async () => {
    const cat = await createCategory('Первая');
    const id = (await admin.post('/api/courses', { name: 'Курс', category_id: cat.id })).json().result.item.id;
    await createModuleWith(ctx.db, id, { lessons: 2, tests: 0 });
    const first = await admin.get('/api/courses');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await admin.get('/api/courses')).body).toBe(first.body);

    await admin.put(`/api/courses/categories/${cat.id}`, { name: 'Вторая' });
    await admin.put(`/api/courses/${id}`, { title: 'Новое', description: 'Описание' });
    await admin.post(`/api/courses/${id}/publish`, { is_published: true });
    const { client: enrolled, user } = await clientAs(ctx, 'admin');
    await admin.post('/api/admin/user-courses/attach', { user_id: user.id, course_ids: [id] });
    const everyone = (await admin.get('/api/courses')).json().result.items;
    expect(everyone[0]).toMatchObject({
      name: 'Вторая',
      items: [{ name: 'Новое', description: 'Описание', students: 1 }],
    });

    // Their own figures in the course (a deadline of their enrollment), the same card otherwise.
    await admin.put(`/api/courses/${id}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 10,
      deadline_unit: 'days',
      deadline_warning_days: 3,
    });
    const theirs = (await enrolled.get('/api/courses')).json().result.items;
    const [mine] = (await admin.get('/api/courses')).json().result.items[0].items;
    expect(mine).toMatchObject({ deadline: null, deadline_status: null });
    expect(theirs[0].items[0]).toEqual({ ...mine, deadline: expect.any(String), deadline_status: 'in_order' });
  });

  it('refuses duplicate names with "Введите другое название"', async () => {
    await createCategory('Продукты');
    const dup = await admin.post('/api/courses/categories', { name: 'продукты' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().result.message).toBe('Введите другое название');
    await admin.post('/api/courses', {});
    expect((await admin.post('/api/courses', { name: 'новый курс' })).json().result.message).toBe(
      'Введите другое название',
    );
    expect((await admin.post('/api/courses', {})).json().result.item.name).toBe('Новый курс 2');
    const empty = await admin.post('/api/courses/categories', { name: '  ' });
    expect(empty.json().result.message).toBe('Поле не может быть пустым');
  });

  it('renames, reorders in bulk (names swap fine) and deletes a category with its courses', async () => {
    const a = await createCategory('А');
    const b = await createCategory('Б');
    const renamed = await admin.put(`/api/courses/categories/${a.id}`, { name: 'А1' });
    expect(renamed.json().result.item.name).toBe('А1');
    expect((await admin.put(`/api/courses/categories/${a.id}`, { name: 'Б' })).statusCode).toBe(422);

    const bulk = await admin.post('/api/courses/categories/update', {
      categories: [
        { id: b.id, name: 'А1', sort_order: 0 },
        { id: a.id, name: 'Б', sort_order: 1 },
      ],
    });
    expect(bulk.json().result).toEqual({ success: true, message: 'Изменения успешно сохранены' });
    const list = (await admin.get('/api/courses')).json().result.items;
    expect(list.map((c: { id: number; name: string }) => [c.id, c.name])).toEqual([
      [b.id, 'А1'],
      [a.id, 'Б'],
    ]);
    const clash = await admin.post('/api/courses/categories/update', {
      categories: [
        { id: a.id, name: 'X', sort_order: 0 },
        { id: b.id, name: 'x', sort_order: 1 },
      ],
    });
    expect(clash.statusCode).toBe(422);

    const course = (await admin.post('/api/courses', { name: 'Уйдёт', category_id: a.id })).json().result.item.id;
    const del = await admin.delete(`/api/courses/categories/${a.id}`);
    expect(del.json().result.message).toBe('Категория успешно удалена');
    const row = await ctx.db.kysely
      .selectFrom('courses')
      .select('deleted_at')
      .where('id', '=', course)
      .executeTakeFirst();
    expect(row?.deleted_at).toBe(ctx.clock.now().toISOString());
    expect((await admin.delete(`/api/courses/categories/${a.id}`)).statusCode).toBe(404);
    // The name of a deleted category (and of its courses) is free again.
    expect((await admin.post('/api/courses/categories', { name: 'Б' })).statusCode).toBe(201);
    expect((await admin.post('/api/courses', { name: 'Уйдёт' })).statusCode).toBe(201);
  });

  it("deleting a category keeps every learner's progress, attempts and answers, and hides its courses everywhere", async () => {
    const category = await createCategory('Уходящая');
    const course = await createCourse(ctx.db, 'Старый курс', { category_id: category.id, is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', course).execute();
    const { lessonIds, testIds } = await createModuleWith(ctx.db, course, { lessons: 2, tests: 1 });
    const { client: learner, user } = await clientAs(ctx, 'learner');
    await admin.post('/api/admin/user-courses/attach', { user_id: user.id, course_ids: [course] });
    await recordLesson(ctx.db, user.id, lessonIds[0] as number, '2026-01-10T00:00:00.000Z', '2026-01-10T01:00:00.000Z');
    await recordLesson(ctx.db, user.id, lessonIds[1] as number, '2026-01-11T00:00:00.000Z', null);
    await recordAttempt(ctx.db, user.id, testIds[0] as number, 1, '2026-01-12T00:00:00.000Z', true);
    const attempt = await ctx.db.kysely.selectFrom('test_attempts').select('id').executeTakeFirstOrThrow();
    const question = await ctx.db.kysely
      .insertInto('test_questions')
      .values({ test_id: testIds[0] as number, question_text: 'Вопрос' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.kysely
      .insertInto('attempt_answers')
      .values({
        attempt_id: attempt.id,
        question_id: question.id,
        answer_ids: '[1]',
        answered_at: '2026-01-12T00:00:00.000Z',
      })
      .execute();
    expect((await learner.get('/api/user/started-lessons')).json().result.items).toHaveLength(1);

    expect((await admin.delete(`/api/courses/categories/${category.id}`)).statusCode).toBe(200);

    const count = async (table: 'lesson_progress' | 'test_attempts' | 'attempt_answers') =>
      Number(
        (
          await ctx.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect([await count('lesson_progress'), await count('test_attempts'), await count('attempt_answers')]).toEqual([
      2, 1, 1,
    ]);
    const catalogue = (await admin.get('/api/courses')).json().result.items;
    expect(JSON.stringify(catalogue)).not.toContain('Старый курс');
    expect((await learner.get('/api/user/courses')).json().result.categories).toEqual([]);
    expect((await learner.get('/api/user/started-lessons')).json().result.items).toEqual([]);
    expect((await admin.get(`/api/admin/users/${user.id}/courses`)).json().result.data).toEqual([]);
    // A deleted course can no longer be given to anyone.
    const attach = await admin.post('/api/admin/user-courses/attach', { user_id: user.id, course_ids: [course] });
    expect(attach.statusCode).toBe(422);
  });

  it('is for admins and authors; others get the documented 403 texts', async () => {
    const { client: author } = await clientAs(ctx, 'author');
    expect((await author.post('/api/courses/categories', { name: 'Автора' })).statusCode).toBe(201);
    const { client: learner } = await clientAs(ctx, 'learner');
    const cat = await learner.post('/api/courses/categories', { name: 'Нет' });
    expect(cat.statusCode).toBe(403);
    expect(cat.json().result.message).toBe('У вас нет прав для создания категории');
    const course = await learner.post('/api/courses', { name: 'Нет' });
    expect(course.json().result.message).toBe('У вас нет прав для создания курса');
    expect((await learner.get('/api/courses')).json().result.message).toBe('Доступ запрещен');
  });
});
