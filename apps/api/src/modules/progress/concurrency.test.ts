import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import {
  clientAs,
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

/**
 * A learner's event refreshes one (user, course) pair while an author's change of the course refreshes
 * every pair of it (progress/states.ts): on PostgreSQL the two run at once, and neither may fail nor
 * keep a row computed without the other's change.
 */
describe(`learner events and course changes at once (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const at = () => ctx.clock.now().toISOString();

  async function enrolled(courseId: number) {
    const user = (await createUser(ctx.db, { role: 'learner' })).id;
    await ctx.db.kysely
      .insertInto('user_courses')
      .values({ user_id: user, course_id: courseId, assigned_at: at() })
      .execute();
    await learningStatesOver({ db: ctx.db.kysely }, ctx.clock).enrollment.refresh({ userIds: [user] });
    return user;
  }

  /** The learner's event: a lesson completed and the pair refreshed, in the unit. */
  async function complete(uow: UnitOfWork, user: number, courseId: number, lessonId: number) {
    await uow.db
      .insertInto('lesson_progress')
      .values({ user_id: user, lesson_id: lessonId, started_at: at(), completed_at: at() })
      .execute();
    await learningStatesOver(uow, ctx.clock).states.refresh({ userIds: [user], courseIds: [courseId] });
  }

  /** The author's change: a published lesson added, and every learner's row of the course refreshed. */
  async function addLesson(uow: UnitOfWork, courseId: number, moduleId: number) {
    await uow.db
      .insertInto('lessons')
      .values({ module_id: moduleId, name: 'Новый урок', is_published: true, sort_order: 50 })
      .execute();
    await learningStatesOver(uow, ctx.clock).states.refresh({ courseIds: [courseId] });
  }

  /** Runs `work` in a unit that stays open, once it has run, until `release` is called. */
  function holding(work: (uow: UnitOfWork) => Promise<void>) {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ran = (_pid: number) => {};
    const pid = new Promise<number>((resolve) => (ran = resolve));
    const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const done = uow.run(async () => {
      await work(uow);
      ran((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(uow.db)).rows[0]?.pid ?? 0);
      await gate;
    });
    // A unit that fails before holding fails the test instead of leaving it waiting.
    const failed = done.then(() => Promise.reject(new Error('the unit ended before holding')));
    return { pid: Promise.race([pid, failed]), release, done };
  }

  const stored = (user: number, courseId: number) =>
    ctx.db.kysely
      .selectFrom('learning_states')
      .select(['lessons_completed', 'completed_at'])
      .where('user_id', '=', user)
      .where('course_id', '=', courseId)
      .executeTakeFirst();

  /** Every row equals a rebuild from the records. */
  async function expectExact() {
    const rows = async () =>
      (
        await ctx.db.kysely.selectFrom('learning_states').selectAll().orderBy('user_id').orderBy('course_id').execute()
      ).map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? Date.parse(v) : v])));
    const kept = await rows();
    await learningStatesOver({ db: ctx.db.kysely }, ctx.clock).states.rebuild();
    expect(kept).toEqual(await rows());
  }

  it.skipIf(!TEST_DATABASE_URL)(
    "a completion waiting for an author's refresh of the course succeeds and counts both changes",
    async () => {
      const courseId = await createCourse(ctx.db);
      const { moduleId, lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 2 });
      const user = await enrolled(courseId);
      // Another learner: the author's refresh is then one of several pairs.
      await enrolled(courseId);
      const author = holding((uow) => addLesson(uow, courseId, moduleId));
      const holder = await author.pid;
      const learner = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const completed = learner.run(() => complete(learner, user, courseId, lessonIds[0] as number));
      await untilBlockedBy(ctx.db, holder);
      author.release();
      await author.done;
      await completed;
      expect(await stored(user, courseId)).toMatchObject({ lessons_completed: 1, completed_at: null });
      await expectExact();
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "an author's refresh of the course waiting for a completion keeps the completion",
    async () => {
      const courseId = await createCourse(ctx.db);
      const { moduleId, lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 2 });
      const user = await enrolled(courseId);
      await enrolled(courseId);
      const learner = holding((uow) => complete(uow, user, courseId, lessonIds[0] as number));
      const holder = await learner.pid;
      const author = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const added = author.run(() => addLesson(author, courseId, moduleId));
      await untilBlockedBy(ctx.db, holder);
      learner.release();
      await learner.done;
      await added;
      expect(await stored(user, courseId)).toMatchObject({ lessons_completed: 1, completed_at: null });
      await expectExact();
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "a learner's first record while the author changes the course is counted with the change",
    async () => {
      const courseId = await createCourse(ctx.db);
      const { moduleId, lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 1 });
      // Neither enrolled nor with a record: the author's refresh does not know of this learner.
      const user = (await createUser(ctx.db, { role: 'learner' })).id;
      await enrolled(courseId);
      await enrolled(courseId);
      const author = holding((uow) => addLesson(uow, courseId, moduleId));
      const holder = await author.pid;
      const learner = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      let finished = false;
      const completed = learner
        .run(() => complete(learner, user, courseId, lessonIds[0] as number))
        .finally(() => (finished = true));
      // The learner must wait for the author: the course they complete gains a lesson meanwhile.
      await untilBlockedBy(ctx.db, holder, () => finished);
      author.release();
      await author.done;
      await completed;
      expect(await stored(user, courseId)).toMatchObject({ lessons_completed: 1, completed_at: null });
      await expectExact();
    },
  );

  it('answers every completion while lessons are added to the same course, and keeps exact rows', async () => {
    const courseId = await createCourse(ctx.db);
    const { moduleId, lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 4 });
    const learners = [];
    // One after another: the sign-in's password check admits a few at a time.
    for (let i = 0; i < 24; i++) {
      const { client, user } = await clientAs(ctx, 'learner');
      await ctx.db.kysely
        .insertInto('user_courses')
        .values({ user_id: user.id, course_id: courseId, assigned_at: at() })
        .execute();
      learners.push(client);
    }
    await learningStatesOver({ db: ctx.db.kysely }, ctx.clock).enrollment.refresh({ courseIds: [courseId] });
    const { client: author } = await clientAs(ctx, 'admin');
    const answer = (res: { statusCode: number; body: string }) =>
      res.statusCode === 200 || res.statusCode === 201 ? 'ok' : `${res.statusCode} ${res.body}`;
    // The author adds lessons one after another (as the constructor does) while every learner completes.
    const adding = async () => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++)
        out.push(answer(await author.post('/api/courses/lessons', { module_id: moduleId, name: `Урок ${i + 10}` })));
      return out;
    };
    const answers = (
      await Promise.all([
        adding(),
        ...learners.flatMap((client) =>
          lessonIds.map(async (id) => [answer(await client.post(`/api/lessons/${id}/complete`))]),
        ),
      ])
    ).flat();
    const failed = answers.filter((a) => a !== 'ok');
    expect(failed).toEqual([]);
    await expectExact();
  });
});
