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
  recordAttempt,
  recordLesson,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`analytics (${dialectName})`, () => {
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
  const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();

  async function courseWithDeadline(title: string, days: number) {
    const id = await createCourse(ctx.db, title, { is_published: true });
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_deadline: true, deadline_value: days, deadline_warning_days: 3 })
      .where('id', '=', id)
      .execute();
    return { id, ...(await createModuleWith(ctx.db, id, { lessons: 2, tests: 1 })) };
  }

  it('groups each employee by their most urgent course; a manager sees only the others of their department', async () => {
    const late = await courseWithDeadline('Просроченный курс', 5);
    const soon = await courseWithDeadline('Скоро срок', 16);
    const calm = await courseWithDeadline('Спокойный', 60);
    const anna = await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'Анна',
      last_name: 'Иванова',
    });
    const boris = await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'Борис',
      last_name: 'Петров',
    });
    const vera = await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'Вера',
      last_name: 'Сидорова',
    });
    const other = await createUser(ctx.db, { role: 'learner', department_id: support });
    // Enrolled 14 days ago (clock moves on after the attach).
    await admin.post('/api/admin/user-courses/attach', { user_id: anna.id, course_ids: [late.id, calm.id] });
    await admin.post('/api/admin/user-courses/attach', { user_id: boris.id, course_ids: [soon.id, calm.id] });
    await admin.post('/api/admin/user-courses/attach', { user_id: other.id, course_ids: [late.id] });
    await recordLesson(ctx.db, anna.id, late.lessonIds[0] as number, at(0), at(0));
    ctx.clock.advance(14 * DAY);
    await manager.signIn(managerEmail);
    await admin.signIn(adminEmail);

    const res = await manager.get('/api/analytics/users');
    expect(res.statusCode).toBe(200);
    const a = res.json().result.analytic;
    expect(a.overdue.map((e: { id: number }) => e.id)).toEqual([anna.id]);
    expect(a.overdue[0]).toMatchObject({ course: { id: late.id, name: 'Просроченный курс' }, percent: 33 });
    expect(a.overdue[0].deadline).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    expect(a.almost_overdue.map((e: { id: number }) => e.id)).toEqual([boris.id]);
    // An employee with no course is in order with course null, so the count is the team.
    expect(a.in_order).toEqual([expect.objectContaining({ id: vera.id, course: null, deadline: '', percent: 0 })]);
    const everyone = (await admin.get('/api/analytics/users')).json().result.analytic;
    expect(everyone.overdue.map((e: { id: number }) => e.id).sort()).toEqual([anna.id, other.id].sort());

    expect((await manager.get(`/api/analytics/users/${other.id}`)).statusCode).toBe(404);
    expect((await manager.get(`/api/analytics/courses/${late.id}/user/${other.id}`)).statusCode).toBe(404);
    const { client: learner } = await clientAs(ctx, 'learner', { department_id: sales });
    const denied = await learner.get('/api/analytics/users');
    expect([denied.statusCode, denied.json().result.message]).toEqual([403, 'Доступ запрещен']);
  });

  it('details an employee and a course down to each item status, failed tests included', async () => {
    const course = await courseWithDeadline('Охрана труда', 30);
    const anna = await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'Анна',
      last_name: 'Иванова',
    });
    await admin.post('/api/admin/user-courses/attach', { user_id: anna.id, course_ids: [course.id] });
    await recordLesson(ctx.db, anna.id, course.lessonIds[0] as number, at(0), at(0));
    await recordLesson(ctx.db, anna.id, course.lessonIds[1] as number, at(0), null);
    await recordAttempt(ctx.db, anna.id, course.testIds[0] as number, 1, at(0), false);

    const user = (await manager.get(`/api/analytics/users/${anna.id}`)).json().result.user;
    expect(user).toMatchObject({
      id: anna.id,
      name: 'Иванова Анна',
      department: 'Продажи',
      total_progress: 33,
      courses: [
        { id: course.id, name: 'Охрана труда', items_completed: 1, items_total: 3, progress: 33, is_expired: false },
      ],
    });
    const detail = (await manager.get(`/api/analytics/courses/${course.id}/user/${anna.id}`)).json().result.course;
    expect(detail).toMatchObject({ name: 'Охрана труда', items_completed: 1, items_total: 3, completed_at: null });
    expect(detail.modules[0].items.map((i: { type: string; status: string }) => [i.type, i.status])).toEqual([
      ['lesson', 'completed'],
      ['lesson', 'in_progress'],
      ['test', 'failed'],
    ]);
    expect((await manager.get(`/api/analytics/courses/999999/user/${anna.id}`)).statusCode).toBe(404);
  });
});
