import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { HOUR } from '../../platform/clock.js';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  TEST_DATABASE_URL,
  type TestContext,
  untilBlockedBy,
} from '../../test/harness.js';
import { learningStatesOver } from './standalone.js';

/** `LearningStates.refresh` on its own: one pair or many, odd content, and writers running at once. */
describe(`learning state refresh (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("writes for one pair what a refresh of several pairs writes, a deleted course's rows included", async () => {
    const { states, enrollment } = learningStatesOver({ db: ctx.db.kysely }, ctx.clock);
    const [enrolled, withRecord, neither] = [
      await createUser(ctx.db, { role: 'learner' }),
      await createUser(ctx.db, { role: 'learner' }),
      await createUser(ctx.db, { role: 'learner' }),
    ].map((u) => u.id) as [number, number, number];
    const courseId = await createCourse(ctx.db);
    const { lessonIds, testIds } = await createModuleWith(ctx.db, courseId, {
      lessons: 2,
      tests: 1,
      unpublishedLessons: 1,
    });
    const at = (hours: number) => new Date(ctx.clock.now().getTime() + hours * HOUR).toISOString();
    await ctx.db.kysely
      .insertInto('user_courses')
      .values({ user_id: enrolled, course_id: courseId, assigned_at: at(0) })
      .execute();
    await enrollment.refresh({ userIds: [enrolled], courseIds: [courseId] });
    const [published, unpublished] = [lessonIds[0], lessonIds[2]] as [number, number];
    for (const [user_id, lesson_id] of [
      [enrolled, published],
      [withRecord, unpublished],
    ] as const)
      await ctx.db.kysely
        .insertInto('lesson_progress')
        .values({ user_id, lesson_id, started_at: at(1), completed_at: at(2), created_at: at(1), updated_at: at(2) })
        .execute();
    await ctx.db.kysely
      .insertInto('test_attempts')
      .values({
        user_id: enrolled,
        test_id: testIds[0] as number,
        attempt_number: 1,
        started_at: at(3),
        expires_at: null,
        finished_at: at(4),
        open_marker: null,
        question_order: JSON.stringify([]),
        answer_order: JSON.stringify({}),
        snapshot: null,
        score: 100,
        correct_answers: 0,
        is_passed: true,
        created_at: at(3),
        updated_at: at(4),
      })
      .execute();
    const users = [enrolled, withRecord, neither];
    const rows = () =>
      ctx.db.kysely.selectFrom('learning_states').selectAll().orderBy('user_id').orderBy('course_id').execute();
    const pairByPair = async () => {
      for (const u of users) await states.refresh({ userIds: [u], courseIds: [courseId] });
      return rows();
    };

    await states.refresh({ userIds: users, courseIds: [courseId] });
    const together = await rows();
    expect(together.map((r) => [r.user_id, r.lessons_completed, r.tests_completed])).toEqual([
      [enrolled, 1, 1],
      [withRecord, 0, 0],
    ]);
    await ctx.db.kysely.deleteFrom('learning_states').execute();
    expect(await pairByPair()).toEqual(together);
    // Refreshed again with nothing changed: the same rows.
    expect(await pairByPair()).toEqual(together);

    await ctx.db.kysely
      .updateTable('courses')
      .set({ deleted_at: at(5) })
      .where('id', '=', courseId)
      .execute();
    expect(await pairByPair()).toEqual([]);
  });

  it('counts a lesson and a test of the same id and place once each, whatever order their records come in', async () => {
    const { states } = learningStatesOver({ db: ctx.db.kysely }, ctx.clock);
    const user = (await createUser(ctx.db, { role: 'learner' })).id;
    const courseId = await createCourse(ctx.db);
    const { moduleId } = await createModuleWith(ctx.db, courseId, {});
    const at = new Date(ctx.clock.now().getTime() - HOUR).toISOString();
    // Lessons and tests count their ids apart, and two authors may give items the same place.
    await ctx.db.kysely
      .insertInto('lessons')
      .values({ id: 900, module_id: moduleId, name: 'Урок', is_published: true, sort_order: 1 })
      .execute();
    await ctx.db.kysely
      .insertInto('tests')
      .values({ id: 900, module_id: moduleId, name: 'Тест', is_published: true, sort_order: 1 })
      .execute();
    const lessonRow = (id: number) => ({
      id,
      user_id: user,
      lesson_id: 900,
      started_at: at,
      completed_at: at,
      created_at: at,
      updated_at: at,
    });
    await ctx.db.kysely.insertInto('lesson_progress').values(lessonRow(1000)).execute();
    await ctx.db.kysely
      .insertInto('test_attempts')
      .values({
        id: 1001,
        user_id: user,
        test_id: 900,
        attempt_number: 1,
        started_at: at,
        expires_at: null,
        finished_at: at,
        open_marker: null,
        question_order: '[]',
        answer_order: '{}',
        snapshot: null,
        score: 0,
        correct_answers: 0,
        is_passed: false,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await ctx.db.kysely.insertInto('lesson_progress').values(lessonRow(1002)).execute();
    const row = async () =>
      ctx.db.kysely
        .selectFrom('learning_states')
        .select(['lessons_completed', 'tests_completed'])
        .where('user_id', '=', user)
        .executeTakeFirst();
    await states.refresh({ userIds: [user], courseIds: [courseId] });
    const alone = await row();
    await states.refresh({ userIds: [user, user + 1], courseIds: [courseId] });
    expect(alone).toEqual(await row());
    expect(alone).toEqual({ lessons_completed: 1, tests_completed: 0 });
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "writes several courses' counts in course order: no deadlock with another writer of the same counts",
    async () => {
      const user = (await createUser(ctx.db, { role: 'learner' })).id;
      const [a, b] = [await createCourse(ctx.db), await createCourse(ctx.db)];
      const at = ctx.clock.now().toISOString();
      await ctx.db.kysely.insertInto('user_courses').values({ user_id: user, course_id: a, assigned_at: at }).execute();
      await learningStatesOver({ db: ctx.db.kysely }, ctx.clock).enrollment.refresh({ userIds: [user] });
      const count = (db: UnitOfWork['db'], course: number) =>
        db
          .insertInto('course_stats')
          .values({ course_id: course, learners: 0, lessons_total: 0, tests_total: 0 })
          .onConflict((oc) =>
            oc.column('course_id').doUpdateSet((eb) => ({ learners: eb('course_stats.learners', '+', 0) })),
          )
          .execute();
      // The other writer holds the first course's count, in course order.
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held = (_pid: number) => {};
      const holding = new Promise<number>((resolve) => (held = resolve));
      const other = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const writer = other.run(async () => {
        await count(other.db, a);
        const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(other.db);
        held(pid.rows[0]?.pid ?? 0);
        await gate;
        await count(other.db, b);
      });
      const holder = await holding;
      // The user moves from the first course to the second: the change lists the second one first.
      const move = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const moved = move.run(async () => {
        await move.db.deleteFrom('user_courses').where('user_id', '=', user).execute();
        await move.db.insertInto('user_courses').values({ user_id: user, course_id: b, assigned_at: at }).execute();
        await learningStatesOver(move, ctx.clock).enrollment.refresh({ userIds: [user] });
      });
      await untilBlockedBy(ctx.db, holder);
      release();
      await writer;
      await moved;
      const learners = await ctx.db.kysely
        .selectFrom('course_stats')
        .select(['course_id', 'learners'])
        .where('course_id', 'in', [a, b])
        .orderBy('course_id')
        .execute();
      expect(learners).toEqual([
        { course_id: a, learners: 0 },
        { course_id: b, learners: 1 },
      ]);
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    'keeps both of two parallel events of one pair: the second refresh waits for the first to commit',
    async () => {
      const user = (await createUser(ctx.db, { role: 'learner' })).id;
      const courseId = await createCourse(ctx.db);
      const { lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 2 });
      const { enrollment } = learningStatesOver({ db: ctx.db.kysely }, ctx.clock);
      const at = ctx.clock.now().toISOString();
      await ctx.db.kysely
        .insertInto('user_courses')
        .values({ user_id: user, course_id: courseId, assigned_at: at })
        .execute();
      await enrollment.refresh({ userIds: [user], courseIds: [courseId] });
      const complete = async (uow: UnitOfWork, lessonId: number) => {
        await uow.db
          .insertInto('lesson_progress')
          .values({
            user_id: user,
            lesson_id: lessonId,
            started_at: at,
            completed_at: at,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await learningStatesOver(uow, ctx.clock).states.refresh({ userIds: [user], courseIds: [courseId] });
      };
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let refreshed = (_pid: number) => {};
      const firstRefreshed = new Promise<number>((resolve) => (refreshed = resolve));
      const one = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const first = one.run(async () => {
        await complete(one, lessonIds[0] as number);
        const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one.db);
        refreshed(pid.rows[0]?.pid ?? 0);
        await gate;
      });
      const holder = await firstRefreshed;
      const two = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const second = two.run(() => complete(two, lessonIds[1] as number));
      // Until the second transaction waits for the first (not for any other test's).
      await untilBlockedBy(ctx.db, holder);
      release();
      await first;
      await second;
      const kept = await ctx.db.kysely
        .selectFrom('learning_states')
        .select(['lessons_completed', 'completed_at'])
        .where('user_id', '=', user)
        .executeTakeFirstOrThrow();
      expect(kept.lessons_completed).toBe(2);
      expect(kept.completed_at).not.toBeNull();
    },
  );
});
