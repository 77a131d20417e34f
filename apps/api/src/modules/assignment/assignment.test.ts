import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { HOUR } from '../../platform/clock.js';
import { EnrollmentRepository } from '../enrollment/repository.js';
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

/** The names of the courses a user's home page shows. */
async function homeCourses(client: Client): Promise<string[]> {
  const { categories } = (await client.get('/api/user/courses')).json().result as {
    categories: { items: { name: string }[] }[];
  };
  return categories.flatMap((c) => c.items.map((i) => i.name));
}

describe(`a course's assignment from the course itself (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let author: Client;
  let enrollment: EnrollmentRepository;
  let course: number;
  let sales: number;
  let stock: number;
  const base = (id = course) => `/api/courses/${id}/assignment`;

  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    author = (await clientAs(ctx, 'author', { first_name: 'Елена', last_name: 'Васильева' })).client;
    enrollment = new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind));
    course = await createCourse(ctx.db, 'Техника безопасности');
    sales = (await admin.post('/api/admin/departments', { name: 'Продажи' })).json().result.item.id;
    stock = (await admin.post('/api/admin/departments', { name: 'Склад', sort_order: 1 })).json().result.item.id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('an author gives the course to a department; the departments tab and its members follow, and back', async () => {
    const seller = await createUser(ctx.db, { role: 'learner', department_id: sales, first_name: 'Вера' });
    await createUser(ctx.db, { role: 'learner', department_id: sales });
    const storekeeper = await createUser(ctx.db, { role: 'learner', department_id: stock });
    const learner = new Client(ctx.app);
    await learner.signIn(seller.email, seller.password);
    expect(await homeCourses(learner)).toEqual([]);

    const empty = (await author.get(base())).json().result.assignment;
    expect(empty).toMatchObject({
      course: { id: course, name: 'Техника безопасности' },
      learners: 0,
      departments: [],
      groups: [],
      users: [],
      users_total: 0,
    });
    // Every department with its live members, in the departments tab's order.
    expect(empty.choices.departments).toEqual([
      { id: sales, name: 'Продажи', members: 2 },
      { id: stock, name: 'Склад', members: 1 },
    ]);

    ctx.clock.advance(HOUR);
    const added = await author.post(`${base()}/departments`, { department_ids: [sales] });
    expect(added.statusCode).toBe(200);
    expect(added.json().result).toMatchObject({
      success: true,
      message: 'Курс назначен отделу «Продажи»',
      assignment: { learners: 2, departments: [{ id: sales, name: 'Продажи', members: 2 }] },
    });
    const departments = (await admin.get('/api/admin/departments')).json().result.items as {
      id: number;
      course_ids: number[];
    }[];
    expect(departments.find((d) => d.id === sales)?.course_ids).toEqual([course]);
    expect(departments.find((d) => d.id === stock)?.course_ids).toEqual([]);
    expect(await homeCourses(learner)).toEqual(['Техника безопасности']);
    const enrolledAt = ctx.clock.now().toISOString();
    expect((await enrollment.list({ userIds: [seller.id] }))[0]?.enrolled_at).toBe(enrolledAt);

    // Adding it again changes nothing: the time of the assignment stays.
    ctx.clock.advance(HOUR);
    const again = await author.post(`${base()}/departments`, { department_ids: [sales, stock] });
    expect(again.json().result.message).toBe('Курс назначен отделам: «Продажи», «Склад»');
    expect(again.json().result.assignment.learners).toBe(3);
    expect((await enrollment.list({ userIds: [seller.id] }))[0]?.enrolled_at).toBe(enrolledAt);
    expect((await enrollment.list({ userIds: [storekeeper.id] }))[0]?.enrolled_at).toBe(ctx.clock.now().toISOString());

    // The departments tab takes it away from 'Склад': the course's section shows the same.
    await admin.put(`/api/admin/departments/${stock}`, { name: 'Склад', sort_order: 1, course_ids: [] });
    expect((await author.get(base())).json().result.assignment.departments).toEqual([
      { id: sales, name: 'Продажи', members: 2 },
    ]);

    // Removed from the course: the enrollment ends, the learner's records stay.
    const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 1 });
    const at = ctx.clock.now().toISOString();
    await recordLesson(ctx.db, seller.id, lessonIds[0] ?? 0, at, at);
    const removed = await author.delete(`${base()}/departments/${sales}`);
    expect(removed.json().result).toMatchObject({
      message: 'Назначение отделу «Продажи» снято',
      assignment: { learners: 0, departments: [] },
    });
    expect(await homeCourses(learner)).toEqual([]);
    expect(await enrollment.list({ courseIds: [course] })).toEqual([]);
    const kept = await ctx.db.kysely
      .selectFrom('lesson_progress')
      .select('completed_at')
      .where('user_id', '=', seller.id)
      .execute();
    expect(kept).toHaveLength(1);
    // Removing what is not there is no error either.
    expect((await author.delete(`${base()}/departments/${sales}`)).statusCode).toBe(200);
  });

  it('study groups: added and removed in place, the groups tab agrees', async () => {
    const member = await createUser(ctx.db, { role: 'learner' });
    const group = (await admin.post('/api/study-groups', { name: 'Новички', user_ids: [member.id] })).json().result.item
      .id;
    const added = await author.post(`${base()}/groups`, { group_ids: [group] });
    expect(added.json().result).toMatchObject({
      message: 'Курс назначен группе «Новички»',
      assignment: { learners: 1, groups: [{ id: group, name: 'Новички', members: 1 }] },
    });
    const listed = (await admin.get('/api/study-groups')).json().result.items[0];
    expect(listed.course_ids).toEqual([course]);
    expect((await enrollment.list({ userIds: [member.id] })).map((e) => e.course_id)).toEqual([course]);

    const removed = await author.delete(`${base()}/groups/${group}`);
    expect(removed.json().result).toMatchObject({ message: 'Назначение группе «Новички» снято' });
    expect((await admin.get('/api/study-groups')).json().result.items[0].course_ids).toEqual([]);
    expect(await enrollment.list({ userIds: [member.id] })).toEqual([]);
  });

  it('employees: searched, assigned directly, counted once whatever the sources, removed', async () => {
    const vera = await createUser(ctx.db, {
      role: 'learner',
      department_id: sales,
      first_name: 'Вера',
      last_name: 'Орлова',
      email: 'vera@example.com',
    });
    const petr = await createUser(ctx.db, { role: 'manager', first_name: 'Пётр', last_name: 'Орлов' });
    await author.post(`${base()}/departments`, { department_ids: [sales] });

    const found = (await author.get(`${base()}/candidates?search=${encodeURIComponent('орлов')}`)).json().result.items;
    expect(found).toEqual([
      { id: petr.id, name: 'Орлов Пётр', email: petr.email, department: null, assigned: false },
      { id: vera.id, name: 'Орлова Вера', email: 'vera@example.com', department: 'Продажи', assigned: false },
    ]);

    const added = await author.post(`${base()}/users`, { user_ids: [vera.id, petr.id] });
    expect(added.json().result).toMatchObject({
      message: 'Курс назначен 2 сотрудникам',
      assignment: {
        // Vera holds it through her department and directly: one learner.
        learners: 2,
        users_total: 2,
        users: [
          { id: petr.id, name: 'Орлов Пётр', department: null },
          { id: vera.id, name: 'Орлова Вера', department: 'Продажи' },
        ],
      },
    });
    const marked = (await author.get(`${base()}/candidates?search=vera`)).json().result.items;
    expect(marked).toEqual([expect.objectContaining({ id: vera.id, assigned: true })]);
    // The employee's own courses in the employees tab are the same rows.
    expect((await admin.get(`/api/admin/users/${petr.id}/courses`)).json().result.data).toEqual([
      { id: course, name: 'Техника безопасности' },
    ]);

    const one = await author.post(`${base()}/users`, { user_ids: [petr.id] });
    expect(one.json().result.message).toBe('Курс назначен сотруднику Орлов Пётр');
    const removed = await author.delete(`${base()}/users/${vera.id}`);
    expect(removed.json().result).toMatchObject({
      message: 'Назначение сотруднику Орлова Вера снято',
      assignment: { learners: 2, users_total: 1 },
    });
    // Still enrolled through her department.
    expect((await enrollment.list({ userIds: [vera.id] })).map((e) => e.course_id)).toEqual([course]);
    expect((await author.get(`${base()}/candidates`)).json().result.items.length).toBeGreaterThanOrEqual(4);
  });

  it('answers 404 or 422 in Russian for what is not there, never 500', async () => {
    const deleted = await createCourse(ctx.db, 'Удалённый');
    await admin.delete(`/api/admin/courses/${deleted}`);
    for (const path of [base(deleted), base(99999), `${base(deleted)}/candidates`]) {
      const res = await author.get(path);
      expect(res.statusCode).toBe(404);
      expect(res.json().result.message).toBe('Курс не найден');
    }
    expect((await author.post(`${base(deleted)}/departments`, { department_ids: [sales] })).statusCode).toBe(404);

    const ghost = await author.post(`${base()}/departments`, { department_ids: [sales, 99999] });
    expect(ghost.statusCode).toBe(422);
    expect(ghost.json()).toMatchObject({
      result: { message: 'Отдел не найден' },
      errors: { department_ids: ['Отдел не найден'] },
    });
    expect((await author.get(base())).json().result.assignment.departments).toEqual([]);
    expect((await author.post(`${base()}/groups`, { group_ids: [99999] })).json().result.message).toBe(
      'Группа не найдена',
    );
    const gone = await createUser(ctx.db, { role: 'learner' });
    await admin.delete(`/api/admin/users/${gone.id}`);
    const deletedUser = await author.post(`${base()}/users`, { user_ids: [gone.id] });
    expect(deletedUser.statusCode).toBe(422);
    expect(deletedUser.json().result.message).toBe('Сотрудник не найден');

    expect((await author.delete(`${base()}/departments/99999`)).json().result.message).toBe('Отдел не найден');
    expect((await author.delete(`${base()}/groups/99999`)).statusCode).toBe(404);
    expect((await author.delete(`${base()}/users/${gone.id}`)).statusCode).toBe(404);

    const empty = await author.post(`${base()}/users`, { user_ids: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().result.message).toBe('Выберите сотрудников');
    expect((await author.post(`${base()}/departments`, { department_ids: ['1'] })).statusCode).toBe(422);
    expect((await author.delete(`${base()}/departments/abc`)).statusCode).toBe(422);
  });

  it('is for admins and authors: a learner or a manager gets 403, a guest 401', async () => {
    expect((await admin.get(base())).statusCode).toBe(200);
    expect((await admin.post(`${base()}/departments`, { department_ids: [stock] })).statusCode).toBe(200);
    for (const role of ['learner', 'manager'] as const) {
      const { client } = await clientAs(ctx, role, { department_id: sales });
      expect((await client.get(base())).statusCode).toBe(403);
      expect((await client.get(`${base()}/candidates?search=a`)).statusCode).toBe(403);
      expect((await client.post(`${base()}/departments`, { department_ids: [sales] })).statusCode).toBe(403);
      expect((await client.delete(`${base()}/departments/${stock}`)).statusCode).toBe(403);
    }
    const guest = new Client(ctx.app);
    expect((await guest.get(base())).statusCode).toBe(401);
    expect((await guest.post(`${base()}/users`, { user_ids: [1] })).statusCode).toBe(401);
    expect((await admin.get(base())).json().result.assignment.departments).toEqual([
      { id: stock, name: 'Склад', members: 0 },
    ]);
  });
});
