import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR } from '../../platform/clock.js';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { EnrollmentRepository } from '../enrollment/repository.js';
import {
  clientAs,
  createCourse,
  createTestApp,
  createUser,
  dialectName,
  roleId,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`settings: departments (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let enrollment: EnrollmentRepository;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    enrollment = new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind));
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('creates, lists by sort_order (missing = 0), updates and deletes', async () => {
    const course = await createCourse(ctx.db, 'Продажи 101');
    const created = await admin.post('/api/admin/departments', {
      name: 'Продажи',
      sort_order: 2,
      course_ids: [course],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().result).toMatchObject({
      success: true,
      message: 'Отдел успешно добавлен',
      item: { name: 'Продажи', sort_order: 2, course_ids: [course] },
    });
    await admin.post('/api/admin/departments', { name: 'Бухгалтерия', sort_order: '', course_ids: [] });
    await admin.post('/api/admin/departments', { name: 'ИТ', sort_order: 1 });
    const list = (await admin.get('/api/admin/departments')).json().result.items;
    expect(list.map((d: { name: string; sort_order: number | null }) => [d.name, d.sort_order])).toEqual([
      ['Бухгалтерия', null],
      ['ИТ', 1],
      ['Продажи', 2],
    ]);
    const id = created.json().result.item.id;
    const updated = await admin.put(`/api/admin/departments/${id}`, {
      name: 'Отдел продаж',
      sort_order: 0,
      course_ids: [],
    });
    expect(updated.json().result).toMatchObject({
      message: 'Отдел успешно обновлен',
      item: { name: 'Отдел продаж', course_ids: [] },
    });
    const removed = await admin.delete(`/api/admin/departments/${id}`);
    expect(removed.json().result.message).toBe('Отдел успешно удален');
    expect((await admin.get('/api/admin/departments')).json().result.items).toHaveLength(2);
    expect((await admin.delete(`/api/admin/departments/${id}`)).statusCode).toBe(404);
  });

  it('validates name and sort order', async () => {
    const noName = await admin.post('/api/admin/departments', { name: '  ', sort_order: null, course_ids: [] });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().result.message).toBe('Пожалуйста, введите название отдела');
    const negative = await admin.post('/api/admin/departments', { name: 'X', sort_order: -1, course_ids: [] });
    expect(negative.statusCode).toBe(422);
    const fraction = await admin.post('/api/admin/departments', { name: 'X', sort_order: 1.5, course_ids: [] });
    expect(fraction.statusCode).toBe(422);
    expect((await admin.get('/api/admin/departments')).json().result.items).toHaveLength(0);
  });

  it('a course added to a department enrolls its members; removing it ends that enrollment', async () => {
    const course = await createCourse(ctx.db, 'Техника безопасности');
    const dep = (await admin.post('/api/admin/departments', { name: 'Цех', course_ids: [] })).json().result.item.id;
    const worker = await createUser(ctx.db, { role: 'learner', department_id: dep });
    const outsider = await createUser(ctx.db, { role: 'learner' });
    expect(await enrollment.list({ courseIds: [course] })).toEqual([]);

    ctx.clock.advance(HOUR);
    await admin.put(`/api/admin/departments/${dep}`, { name: 'Цех', course_ids: [course] });
    const enrolled = await enrollment.list({ courseIds: [course] });
    expect(enrolled).toEqual([{ user_id: worker.id, course_id: course, enrolled_at: ctx.clock.now().toISOString() }]);
    expect(enrolled.some((e) => e.user_id === outsider.id)).toBe(false);

    // Saving again keeps the original assignment time.
    ctx.clock.advance(HOUR);
    await admin.put(`/api/admin/departments/${dep}`, { name: 'Цех 1', course_ids: [course] });
    expect((await enrollment.list({ courseIds: [course] }))[0]?.enrolled_at).toBe(enrolled[0]?.enrolled_at);

    const courses = (await admin.get(`/api/admin/departments/${dep}/courses`)).json().result.items;
    expect(courses).toEqual([
      { id: course, name: 'Техника безопасности', value: String(course), label: 'Техника безопасности' },
    ]);

    await admin.put(`/api/admin/departments/${dep}`, { name: 'Цех 1', course_ids: [] });
    expect(await enrollment.list({ courseIds: [course] })).toEqual([]);
  });

  it('an employee moved into a department is enrolled in its courses from the move, not before', async () => {
    const course = await createCourse(ctx.db, 'Регламент');
    const from = (await admin.post('/api/admin/departments', { name: 'Старый' })).json().result.item.id;
    const to = (await admin.post('/api/admin/departments', { name: 'Новый', course_ids: [course] })).json().result.item
      .id;
    const learner = await roleId(ctx.db, 'learner');
    const id = (
      await admin.post('/api/admin/users', {
        first_name: 'Пётр',
        last_name: 'Седов',
        login: 'sedov@example.com',
        password: '',
        department_id: from,
        role_id: learner,
      })
    ).json().data.id;
    ctx.clock.advance(5 * HOUR);
    const moved = await admin.put(`/api/admin/users/${id}`, {
      first_name: 'Пётр',
      last_name: 'Седов',
      login: 'sedov@example.com',
      department_id: to,
      role_id: learner,
    });
    expect(moved.statusCode).toBe(200);
    expect(await enrollment.list({ userIds: [id] })).toEqual([
      { user_id: id, course_id: course, enrolled_at: ctx.clock.now().toISOString() },
    ]);
  });

  it('deleting a department keeps its people, without a department', async () => {
    const dep = (await admin.post('/api/admin/departments', { name: 'Временный' })).json().result.item.id;
    const user = await createUser(ctx.db, { role: 'learner', department_id: dep });
    await admin.delete(`/api/admin/departments/${dep}`);
    const row = await ctx.db.kysely
      .selectFrom('users')
      .select('department_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.department_id).toBeNull();
  });
});
