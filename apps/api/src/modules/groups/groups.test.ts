import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { EnrollmentRepository } from '../enrollment/repository.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`settings: study groups (${dialectName})`, () => {
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

  it('creates (201), lists with users, updates (200), deletes (204)', async () => {
    const anna = await createUser(ctx.db, { role: 'learner', first_name: 'Анна', last_name: 'Белова' });
    const boris = await createUser(ctx.db, { role: 'learner', first_name: 'Борис', last_name: 'Авдеев' });
    const course = await createCourse(ctx.db, 'Введение');
    const created = await admin.post('/api/study-groups', {
      name: 'Новички',
      user_ids: [anna.id, boris.id],
      course_ids: [course],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().result.message).toBe('Группа успешно добавлена');
    const id = created.json().result.item.id;
    const list = (await admin.get('/api/study-groups')).json().result.items;
    expect(list).toEqual([
      {
        id,
        name: 'Новички',
        users: [
          { id: boris.id, name: 'Авдеев Борис', first_name: 'Борис', last_name: 'Авдеев' },
          { id: anna.id, name: 'Белова Анна', first_name: 'Анна', last_name: 'Белова' },
        ],
        course_ids: [course],
      },
    ]);
    const updated = await admin.put(`/api/study-groups/${id}`, {
      name: 'Новички 2026',
      user_ids: [anna.id],
      course_ids: [course],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().result).toMatchObject({
      message: 'Группа успешно обновлена',
      item: { users: [{ id: anna.id }] },
    });
    expect((await admin.get(`/api/study-groups/${id}/courses`)).json().result.items[0]).toMatchObject({
      id: course,
      name: 'Введение',
    });
    const removed = await admin.delete(`/api/study-groups/${id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await admin.get('/api/study-groups')).json().result.items).toEqual([]);
  });

  it('validates the name and member ids', async () => {
    const res = await admin.post('/api/study-groups', { name: '', user_ids: [], course_ids: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().result.message).toBe('Пожалуйста, введите название группы');
    const ghost = await admin.post('/api/study-groups', { name: 'Г', user_ids: [99999], course_ids: [] });
    expect(ghost.statusCode).toBe(422);
    expect((await admin.get('/api/study-groups')).json().result.items).toEqual([]);
  });

  it('removing a user from a group removes only that source of enrollment', async () => {
    const dep = await createDepartment(ctx.db);
    const course = await createCourse(ctx.db);
    const user = await createUser(ctx.db, { role: 'learner', department_id: dep });
    const other = await createUser(ctx.db, { role: 'learner' });
    const group = (
      await admin.post('/api/study-groups', { name: 'Г', user_ids: [user.id, other.id], course_ids: [course] })
    ).json().result.item.id;
    await admin.put(`/api/admin/departments/${dep}`, { name: 'Отдел', course_ids: [course] });
    await admin.post('/api/admin/user-courses/attach', { user_id: other.id, course_ids: [] });
    expect((await enrollment.list({ courseIds: [course] })).map((e) => e.user_id).sort()).toEqual(
      [user.id, other.id].sort(),
    );

    await admin.put(`/api/study-groups/${group}`, { name: 'Г', user_ids: [], course_ids: [course] });
    // The user stays enrolled through the department; the other user had only the group.
    expect((await enrollment.list({ courseIds: [course] })).map((e) => e.user_id)).toEqual([user.id]);
  });

  it('enrolled_at is the earliest of the sources', async () => {
    const course = await createCourse(ctx.db);
    const user = await createUser(ctx.db, { role: 'learner' });
    await admin.post('/api/admin/user-courses/attach', { user_id: user.id, course_ids: [course] });
    const direct = ctx.clock.now().toISOString();
    ctx.clock.advance(3600 * 1000);
    await admin.post('/api/study-groups', { name: 'Г', user_ids: [user.id], course_ids: [course] });
    expect(await enrollment.list({ userIds: [user.id] })).toEqual([
      { user_id: user.id, course_id: course, enrolled_at: direct },
    ]);
    expect(
      (await admin.post('/api/admin/user-courses/detach', { user_id: user.id, course_ids: [course] })).statusCode,
    ).toBe(200);
    expect((await enrollment.list({ userIds: [user.id] }))[0]?.enrolled_at).toBe(ctx.clock.now().toISOString());
  });
});
