import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  recordAttempt,
  type Client,
  type TestContext,
} from '../../test/harness.js';

describe(`learner course and lessons (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let learner: Client;
  let learnerId: number;
  let learnerEmail: string;
  let course: number;
  let lessons: number[];
  let tests: number[];
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    const l = await clientAs(ctx, 'learner');
    learner = l.client;
    learnerId = l.user.id;
    learnerEmail = l.user.email;
    course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    const m1 = await createModuleWith(ctx.db, course, { lessons: 2, unpublishedLessons: 1, name: 'Введение' });
    const m2 = await createModuleWith(ctx.db, course, { lessons: 1, tests: 1, name: 'Итог' });
    await createModuleWith(ctx.db, course, { unpublishedLessons: 1, name: 'Черновик' });
    await ctx.db.kysely.updateTable('modules').set({ sort_order: 1 }).where('id', '=', m2.moduleId).execute();
    lessons = [...m1.lessonIds.slice(0, 2), ...m2.lessonIds];
    tests = m2.testIds;
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('lists modules with published items in order, links and engine states; hides empty modules', async () => {
    const res = await learner.get(`/api/courses/${course}/modules-structured`);
    expect(res.statusCode).toBe(200);
    const modules = res.json().result.modules as {
      name: string;
      status: string;
      lessonsList: { id: number; type: string; link: string }[];
    }[];
    expect(modules.map((m) => m.name)).toEqual(['Введение', 'Итог']);
    expect(modules[0]?.lessonsList.map((i) => i.id)).toEqual(lessons.slice(0, 2));
    expect(modules[1]?.lessonsList.map((i) => [i.type, i.link])).toEqual([
      ['lesson', `/courses/${course}/lesson/${lessons[2]}`],
      ['test', `/courses/${course}/test/${tests[0]}`],
    ]);
    expect(modules.every((m) => m.status === 'process')).toBe(true);
  });

  it('starts and completes lessons idempotently; progress, module status and the home card follow at once', async () => {
    const [a, b] = lessons as [number, number];
    const start = await learner.post(`/api/lessons/${a}/start`);
    expect(start.json().result).toMatchObject({ success: true, message: 'Урок успешно начат', completed_at: null });
    const startedAt = start.json().result.started_at as string;
    ctx.clock.advance(60_000);
    expect((await learner.post(`/api/lessons/${a}/start`)).json().result.started_at).toBe(startedAt);
    const done = await learner.post(`/api/lessons/${a}/complete`);
    expect(done.json().result).toMatchObject({ message: 'Урок успешно завершен', started_at: startedAt });
    const completedAt = done.json().result.completed_at as string;
    ctx.clock.advance(60_000);
    expect((await learner.post(`/api/lessons/${a}/complete`)).json().result.completed_at).toBe(completedAt);
    // Completed without a start: no start is made up afterwards (time spent 00:00:00).
    await learner.post(`/api/lessons/${b}/complete`);
    expect((await learner.post(`/api/lessons/${b}/start`)).json().result.started_at).toBeNull();

    const modules = (await learner.get(`/api/courses/${course}/modules-structured`)).json().result.modules;
    expect(modules[0].status).toBe('complete');
    const summary = (await learner.get(`/api/admin/courses/${course}`)).json().result.course;
    expect(summary).toMatchObject({
      title: 'Охрана труда',
      lessons_count: 3,
      completed_lessons_count: 2,
      tests_count: 1,
      completed_tests_count: 0,
      progress: 50,
      complete: false,
    });
    expect(summary.is_published).toBeUndefined();
    const card = (await learner.get('/api/user/courses')).json().result.categories[0].items[0];
    expect(card).toMatchObject({ progress: 50, lessons: { total: 3, completed: 2 } });
    expect(
      ((await admin.get(`/api/admin/courses/${course}`)).json().result.course as { is_published: boolean })
        .is_published,
    ).toBe(true);
  });

  it('a new recurrence cycle starts a new row; history stays', async () => {
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_recurrence: true, recurrence_value: 30 })
      .where('id', '=', course)
      .execute();
    for (const id of lessons) await learner.post(`/api/lessons/${id}/complete`);
    await recordAttempt(ctx.db, learnerId, tests[0] as number, 1, ctx.clock.now().toISOString(), true);
    expect((await learner.get(`/api/admin/courses/${course}`)).json().result.course.complete).toBe(true);
    ctx.clock.advance(31 * DAY);
    await learner.signIn(learnerEmail);
    const summary = (await learner.get(`/api/admin/courses/${course}`)).json().result.course;
    expect(summary).toMatchObject({ complete: false, progress: 0 });
    const again = await learner.post(`/api/lessons/${lessons[0]}/start`);
    expect(again.json().result).toMatchObject({ started_at: ctx.clock.now().toISOString(), completed_at: null });
    const rows = await ctx.db.kysely
      .selectFrom('lesson_progress')
      .select('id')
      .where('lesson_id', '=', lessons[0] as number)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('gives lesson contents with neighbours across modules and the server time', async () => {
    const [first, second, third] = lessons as [number, number, number];
    await ctx.db.kysely
      .insertInto('lesson_contents')
      .values([
        { lesson_id: second, type: 'title', content: 'Заголовок', sort_order: -2 },
        {
          lesson_id: second,
          type: 'video',
          content: JSON.stringify({ url: 'https://youtu.be/dQw4w9WgXcQ', videoId: 'dQw4w9WgXcQ' }),
          sort_order: 0,
        },
      ])
      .execute();
    const res = await learner.get(`/api/courses/${course}/lessons/${second}/contents`);
    expect(res.statusCode).toBe(200);
    const r = res.json().result;
    expect(r).toMatchObject({
      name: 'Урок 2',
      started_at: null,
      completed_at: null,
      previous_item: { type: 'lesson', id: first },
      next_item: { type: 'lesson', id: third },
      server_time: ctx.clock.now().toISOString(),
    });
    expect(r.contents.map((b: { type: string }) => b.type)).toEqual(['title', 'video']);
    expect(typeof r.contents[1].content).toBe('string');
    const last = (await learner.get(`/api/courses/${course}/lessons/${third}/contents`)).json().result;
    expect(last.next_item).toEqual({ type: 'test', id: tests[0] });
  });

  it('answers 404 and changes nothing for what the learner may not see', async () => {
    const draft = (
      await ctx.db.kysely.selectFrom('lessons').select('id').where('is_published', '=', false).execute()
    ).map((r) => r.id);
    for (const id of draft) {
      expect((await learner.get(`/api/courses/${course}/lessons/${id}/contents`)).statusCode).toBe(404);
      expect((await learner.post(`/api/lessons/${id}/start`)).statusCode).toBe(404);
    }
    const other = await createCourse(ctx.db, 'Чужой', { is_published: true });
    const foreign = await createModuleWith(ctx.db, other, { lessons: 1 });
    // enrolled_only and not enrolled; then nobody; then not published.
    expect((await learner.get(`/api/courses/${other}/modules-structured`)).statusCode).toBe(404);
    expect((await learner.post(`/api/lessons/${foreign.lessonIds[0]}/complete`)).statusCode).toBe(404);
    expect((await learner.get(`/api/courses/${course}/lessons/${foreign.lessonIds[0]}/contents`)).statusCode).toBe(404);
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', other).execute();
    expect((await learner.get(`/api/courses/${other}/modules-structured`)).statusCode).toBe(200);
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'nobody' }).where('id', '=', course).execute();
    expect((await learner.get(`/api/admin/courses/${course}`)).statusCode).toBe(404);
    await ctx.db.kysely
      .updateTable('courses')
      .set({ accessibility: 'everyone', is_published: false })
      .where('id', '=', course)
      .execute();
    expect((await learner.get(`/api/admin/courses/${course}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/courses/${course}`)).statusCode).toBe(200);
    expect(await ctx.db.kysely.selectFrom('lesson_progress').select('id').execute()).toEqual([]);
  });
});
