import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  queriesDuring,
  recordAttempt,
  recordLesson,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`home calls (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let learner: Client;
  let learnerId: number;
  let learnerUser: { email: string; password: string };
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    const l = await clientAs(ctx, 'learner');
    learner = l.client;
    learnerId = l.user.id;
    learnerUser = l.user;
  });
  afterEach(async () => {
    await ctx.close();
  });
  const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();

  it('shows exactly the visible courses, grouped by category, with engine counters', async () => {
    const cat = (await admin.post('/api/courses/categories', { name: 'Обязательное' })).json().result.item.id;
    const assigned = await createCourse(ctx.db, 'Назначенный', { category_id: cat });
    const open = await createCourse(ctx.db, 'Для всех');
    const hidden = await createCourse(ctx.db, 'Не назначенный', { category_id: cat });
    const draft = await createCourse(ctx.db, 'Черновик', { is_published: false });
    const nobody = await createCourse(ctx.db, 'Скрытый');
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', open).execute();
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'nobody' }).where('id', '=', nobody).execute();
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_deadline: true, deadline_value: 5, deadline_warning_days: 2 })
      .where('id', '=', assigned)
      .execute();
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [assigned, draft, nobody] });
    expect(hidden).toBeGreaterThan(0);
    const { lessonIds, testIds } = await createModuleWith(ctx.db, assigned, {
      lessons: 3,
      tests: 2,
      unpublishedLessons: 2,
    });
    await recordLesson(ctx.db, learnerId, lessonIds[0] ?? 0, at(-1), at(-0.5));
    await recordLesson(ctx.db, learnerId, lessonIds[1] ?? 0, at(-1), null);
    await recordAttempt(ctx.db, learnerId, testIds[0] ?? 0, 1, at(-0.2), true);
    await recordAttempt(ctx.db, learnerId, testIds[1] ?? 0, 1, at(-0.1), false);

    const res = await learner.get('/api/user/courses');
    expect(res.statusCode).toBe(200);
    const { categories } = res.json().result;
    expect(
      categories.map((c: { name: string; items: { name: string }[] }) => [c.name, c.items.map((i) => i.name)]),
    ).toEqual([
      ['Обязательное', ['Назначенный']],
      ['Без категории', ['Для всех']],
    ]);
    expect(categories[0].items[0]).toEqual({
      id: assigned,
      name: 'Назначенный',
      image: null,
      url: `/courses/${assigned}`,
      groups: 0,
      students: 1,
      deadline: at(5),
      deadline_status: 'in_order',
      lessons: { total: 3, completed: 1 },
      test: { total: 2, completed: 1 },
      progress: 40,
      complete: false,
    });
  });

  it('each home call and the catalogue make a few queries, whatever the number of courses', async () => {
    const cat = (await admin.post('/api/courses/categories', { name: 'Обязательное' })).json().result.item.id;
    for (let i = 0; i < 6; i++) {
      const course = await createCourse(ctx.db, `Курс ${i}`, { category_id: i % 2 === 0 ? cat : null });
      await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });
      const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 2, tests: 1 });
      await recordLesson(ctx.db, learnerId, lessonIds[0] ?? 0, at(-1), null);
    }
    // The session and the viewer's rows; after a change of the courses, also the course list and its
    // categories (progress/courseList.ts), once per process.
    for (const [who, url, first, then] of [
      [learner, '/api/user/courses', 4, 2],
      [learner, '/api/user/started-lessons', 2, 2],
      [admin, '/api/courses', 2, 2],
    ] as const) {
      for (const most of [first, then]) {
        let status = 0;
        const queries = await queriesDuring(async () => {
          status = (await who.get(url)).statusCode;
        });
        expect([url, status], queries.join('\n')).toEqual([url, 200]);
        expect(queries.length, `${url}:\n${queries.join('\n')}`).toBeLessThanOrEqual(most);
      }
    }
    expect((await learner.get('/api/user/started-lessons')).json().result.items).toHaveLength(6);
  });

  it('started lessons: not finished, newest first, with module and course names', async () => {
    const course = await createCourse(ctx.db, 'Курс');
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });
    const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 3, name: 'Введение' });
    await recordLesson(ctx.db, learnerId, lessonIds[0] ?? 0, at(-3), null);
    await recordLesson(ctx.db, learnerId, lessonIds[1] ?? 0, at(-1), null);
    await recordLesson(ctx.db, learnerId, lessonIds[2] ?? 0, at(-2), at(-1));
    const items = (await learner.get('/api/user/started-lessons')).json().result.items;
    expect(items).toEqual([
      { id: lessonIds[1], course_id: course, name: 'Урок 2', module: 'Введение', section: 'Курс', image: null },
      { id: lessonIds[0], course_id: course, name: 'Урок 1', module: 'Введение', section: 'Курс', image: null },
    ]);
    await admin.post('/api/admin/user-courses/detach', { user_id: learnerId, course_ids: [course] });
    expect((await learner.get('/api/user/started-lessons')).json().result.items).toEqual([]);
  });

  it('started lessons follow the current recurrence cycle of the course', async () => {
    const course = await createCourse(ctx.db, 'Ежегодный');
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_recurrence: true, recurrence_value: 30 })
      .where('id', '=', course)
      .execute();
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });
    const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 2 });
    const [a, b] = lessonIds as [number, number];
    // Cycle 1 complete 99 days ago; cycle 2 opened 69 days ago.
    await recordLesson(ctx.db, learnerId, a, at(-100), at(-99));
    await recordLesson(ctx.db, learnerId, b, at(-100), at(-99));
    expect((await learner.get('/api/user/started-lessons')).json().result.items).toEqual([]);
    await recordLesson(ctx.db, learnerId, b, at(-5), null);
    const items = (await learner.get('/api/user/started-lessons')).json().result.items as { id: number }[];
    expect(items.map((i) => i.id)).toEqual([b]);
  });

  it("a viewer's answers follow every change of what they show, time included", async () => {
    const course = await createCourse(ctx.db, 'Курс');
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_deadline: true, deadline_value: 5, deadline_warning_days: 2 })
      .where('id', '=', course)
      .execute();
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });
    const { moduleId, lessonIds } = await createModuleWith(ctx.db, course, { lessons: 2, name: 'Введение' });
    const [first, second] = lessonIds as [number, number];
    await recordLesson(ctx.db, learnerId, first, at(0), null);
    const card = async () => (await learner.get('/api/user/courses')).json().result.categories[0].items[0];
    const started = async () => (await learner.get('/api/user/started-lessons')).json().result.items;
    const enrolledAt = ctx.clock.now().getTime();

    // Asked again unchanged: the same answer, read afresh by the session lookup and one query.
    for (const url of ['/api/user/courses', '/api/user/started-lessons']) {
      const before = (await learner.get(url)).body;
      let again = '';
      const queries = await queriesDuring(async () => {
        again = (await learner.get(url)).body;
      });
      expect(again).toBe(before);
      expect(queries, url).toHaveLength(2);
    }

    // Written past the services, as another process or a seeder would: each change shows at once.
    await ctx.db.kysely.updateTable('courses').set({ title: 'Курс 2' }).where('id', '=', course).execute();
    expect((await card()).name).toBe('Курс 2');
    expect((await started())[0].section).toBe('Курс 2');
    await ctx.db.kysely.updateTable('lessons').set({ name: 'Первый' }).where('id', '=', first).execute();
    expect((await started())[0].name).toBe('Первый');
    await ctx.db.kysely.updateTable('modules').set({ name: 'Основы' }).where('id', '=', moduleId).execute();
    expect((await started())[0].module).toBe('Основы');
    await recordLesson(ctx.db, learnerId, second, at(0), at(0));
    expect((await card()).lessons).toEqual({ total: 2, completed: 1 });
    await ctx.db.kysely
      .updateTable('lesson_progress')
      .set({ completed_at: at(0) })
      .where('user_id', '=', learnerId)
      .where('lesson_id', '=', first)
      .execute();
    expect(await started()).toEqual([]);

    // Time alone: almost overdue from exactly three days after enrollment, overdue after the fifth
    // (signed in again with "remember me": an idle session ends after twelve hours).
    await learner.signIn(learnerUser.email, learnerUser.password, true);
    ctx.clock.set(new Date(enrolledAt + 3 * DAY - 1));
    expect((await card()).deadline_status).toBe('in_order');
    ctx.clock.set(new Date(enrolledAt + 3 * DAY));
    expect((await card()).deadline_status).toBe('almost_overdue');
    ctx.clock.set(new Date(enrolledAt + 5 * DAY));
    expect((await card()).deadline_status).toBe('almost_overdue');
    ctx.clock.set(new Date(enrolledAt + 5 * DAY + 1));
    expect((await card()).deadline_status).toBe('overdue');

    // Detached (an enrollment deleted): the course leaves the list.
    const { client: later } = await clientAs(ctx, 'admin');
    const detached = await later.post('/api/admin/user-courses/detach', { user_id: learnerId, course_ids: [course] });
    expect(detached.statusCode).toBe(200);
    expect((await learner.get('/api/user/courses')).json().result.categories).toEqual([]);
  });

  it('needs a session', async () => {
    const { Client } = await import('../../test/harness.js');
    expect((await new Client(ctx.app).get('/api/user/courses')).statusCode).toBe(401);
  });
});
