import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  createUser,
  dialectName,
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
    expect(
      await ctx.db.kysely.selectFrom('courses').select('id').where('id', '=', course).executeTakeFirst(),
    ).toBeUndefined();
    expect((await admin.delete(`/api/courses/categories/${a.id}`)).statusCode).toBe(404);
  });

  it('is for admins and authors; others get the spec 403 texts', async () => {
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
