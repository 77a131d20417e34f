import { random } from '../../test/random.js';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, HOUR } from '../../platform/clock.js';
import {
  Client,
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  TEST_DATABASE_URL,
  type TestContext,
  untilBlockedBy,
} from '../../test/harness.js';
import { CoursesRepository } from '../courses/repository.js';
import { ProgressRepository } from './repository.js';
import { LearningEngine, stateKey } from './service.js';
import { learningStatesOver } from './states.js';

describe(`maintained learning state equals the engine's recomputation after any events (${dialectName})`, () => {
  let ctx: TestContext;
  let engine: LearningEngine;
  let uow: UnitOfWork;
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const kept = learningStatesOver(uow, ctx.clock);
    engine = new LearningEngine(
      new ProgressRepository(uow),
      new CoursesRepository(uow),
      kept.enrollment,
      ctx.clock,
      kept.states,
    );
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function expectExact(step: string, users: readonly number[]) {
    const courses = (await new CoursesRepository({ db: ctx.db.kysely }).rules()).map((c) => c.id);
    const full = await engine.states(users, courses);
    const kept = await engine.summaries(users, courses);
    const strip = (m: Map<string, object>) =>
      [...m].map(([k, v]) => {
        const { items: _items, ...rest } = v as { items?: unknown };
        return [k, rest] as const;
      });
    expect(strip(kept), step).toEqual(strip(full));
    const enrolled = await engine.summaries(users, undefined, { enrolledOnly: true });
    expect([...enrolled.keys()].sort(), step).toEqual(
      [...full]
        .filter(([, s]) => s.enrolled_at !== null)
        .map(([k]) => k)
        .sort(),
    );
    // What one viewer's pages read (viewer.ts: one query each) equals the full recomputation too.
    for (const u of users) {
      // Order aside: the viewer's list comes in catalogue order, `rules()` in the database's.
      const byKey = (a: readonly [string, unknown], b: readonly [string, unknown]) => a[0].localeCompare(b[0]);
      const viewed = await engine.viewerCourses(u);
      expect(
        viewed.map((v) => [stateKey(u, v.course.id), v.summary] as const).sort(byKey),
        `${step}: viewer ${u}`,
      ).toEqual(
        strip(full)
          .filter(([k]) => k.startsWith(`${u}:`))
          .sort(byKey),
      );
      const visible = (await engine.viewerCourses(u, { visibleOnly: true })).map((v) => v.course.id);
      expect(visible, `${step}: visible to ${u}`).toEqual(
        [...courses].sort((a, b) => a - b).filter((c) => full.get(stateKey(u, c))?.visible === true),
      );
      const started = (await engine.startedLessons(u)).map((l) => [l.lesson_id, l.course_id, l.started_at]);
      const expected = [...full]
        .filter(([k, s]) => k.startsWith(`${u}:`) && s.visible)
        .flatMap(([, s]) =>
          s.items
            .filter((i) => i.type === 'lesson' && i.status === 'in_progress')
            .map((i) => [i.id, s.course_id, i.started_at ?? ''] as const),
        )
        .sort((a, b) => b[2].localeCompare(a[2]) || b[0] - a[0]);
      expect(started, `${step}: started lessons of ${u}`).toEqual(expected);
    }
    // The rows themselves equal a rebuild from the records (rows past their valid_until aside).
    const now = ctx.clock.now().getTime();
    const rows = async () =>
      (
        await ctx.db.kysely.selectFrom('learning_states').selectAll().orderBy('user_id').orderBy('course_id').execute()
      ).map((r) => ({
        key: stateKey(r.user_id, r.course_id),
        stale: r.valid_until !== null && Date.parse(r.valid_until) <= now,
        json: JSON.stringify(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? Date.parse(v) : v])),
      }));
    const before = await rows();
    const stale = new Set(before.filter((r) => r.stale).map((r) => r.key));
    await learningStatesOver({ db: ctx.db.kysely }, ctx.clock).states.rebuild();
    const after = (await rows()).filter((r) => !stale.has(r.key)).map((r) => r.json);
    expect(
      before.filter((r) => !r.stale).map((r) => r.json),
      `${step}: stored rows`,
    ).toEqual(after);
    // The per-course counters equal a count of what they count.
    const totals = await engine.totals(courses);
    const items = await new CoursesRepository({ db: ctx.db.kysely }).publishedItems(courses);
    for (const c of courses) {
      const learners = users.filter((u) => full.get(stateKey(u, c))?.enrolled_at != null).length;
      const i = items.get(c);
      expect(totals.get(c) ?? { learners: 0, lessons: 0, tests: 0 }, `${step}: totals of course ${c}`).toEqual({
        learners,
        lessons: i?.lessonIds.length ?? 0,
        tests: i?.testIds.length ?? 0,
      });
    }
  }

  /**
   * A company of three learners and three courses built through the API, and one random event at a
   * time on it (lessons, attempts, publishing, deletion, settings, enrollment, renewal and time);
   * `step` answers what it did, or undefined when it did nothing.
   */
  async function randomCompany(seed: number) {
    const rnd = random(seed);
    const admin = new Client(ctx.app);
    const adminUser = await createUser(ctx.db, { role: 'admin' });
    await admin.signIn(adminUser.email, adminUser.password, true);
    const learners: { id: number; client: Client }[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await createUser(ctx.db, { role: 'learner' });
      const client = new Client(ctx.app);
      await client.signIn(u.email, u.password, true);
      learners.push({ id: u.id, client });
    }
    const courses: number[] = [];
    const lessons = new Map<number, { course: number; module: number; published: boolean }>();
    const tests = new Map<number, { course: number; published: boolean; answers: number[] }>();
    for (let c = 0; c < 3; c++) {
      const course = await createCourse(ctx.db, `Курс ${c}`, { is_published: true });
      courses.push(course);
      await admin.put(`/api/courses/${course}`, { accessibility: c === 0 ? 'everyone' : 'enrolled_only' });
      for (let m = 0; m < 2; m++) {
        const made = await createModuleWith(ctx.db, course, { lessons: 2, tests: 1, name: `Модуль ${m}` });
        for (const id of made.lessonIds) lessons.set(id, { course, module: made.moduleId, published: true });
        for (const id of made.testIds) {
          const q = await ctx.db.kysely
            .insertInto('test_questions')
            .values({ test_id: id, question_text: 'Вопрос', sort_order: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          const answers: number[] = [];
          for (let a = 0; a < 2; a++)
            answers.push(
              (
                await ctx.db.kysely
                  .insertInto('test_answers')
                  .values({ question_id: q.id, answer_text: `Ответ ${a}`, is_correct: a === 0, sort_order: a })
                  .returning('id')
                  .executeTakeFirstOrThrow()
              ).id,
            );
          tests.set(id, { course, published: true, answers });
        }
      }
    }
    const userIds = learners.map((l) => l.id);
    const fine = (what: string, res: { statusCode: number; body: string }) =>
      expect([what, res.statusCode >= 500 ? res.body : 'ok']).toEqual([what, 'ok']);
    let advanced = 0;

    const step = async (): Promise<string | undefined> => {
      const learner = rnd.pick(learners);
      const op = rnd.int(14);
      let what = '';
      if (op <= 1) {
        const [id] = rnd.pick([...lessons]);
        what = `lesson ${id} ${op === 0 ? 'started' : 'completed'}`;
        fine(what, await learner.client.post(`/api/lessons/${id}/${op === 0 ? 'start' : 'complete'}`));
      } else if (op <= 3) {
        const [id, t] = rnd.pick([...tests]);
        what = `test ${id} taken`;
        const started = await learner.client.post('/api/test-attempts/start', { course_test_id: id });
        fine(what, started);
        const attemptId =
          started.statusCode === 200 ? (started.json().result.attempt?.id as number | undefined) : undefined;
        if (attemptId !== undefined && rnd.chance(0.8)) {
          const view = (await learner.client.get(`/api/courses/${t.course}/tests/${id}`)).json();
          const question = view.result?.test?.questions?.[0]?.id as number | undefined;
          if (question !== undefined)
            await learner.client.post('/api/test-attempts/save-answers', {
              attempt_id: attemptId,
              answers: [{ test_question_id: question, answer: [rnd.pick(t.answers)] }],
            });
          fine(what, await learner.client.post('/api/test-attempts/finish', { attempt_id: attemptId }));
        }
      } else if (op === 4) {
        const [id, l] = rnd.pick([...lessons]);
        l.published = !l.published;
        what = `lesson ${id} ${l.published ? 'published' : 'unpublished'}`;
        fine(
          what,
          await admin.put(`/api/courses/${l.course}/lessons/${id}`, { name: 'Урок', is_published: l.published }),
        );
      } else if (op === 5) {
        const [id, t] = rnd.pick([...tests]);
        t.published = !t.published;
        what = `test ${id} ${t.published ? 'published' : 'unpublished'}`;
        fine(what, await admin.put(`/api/courses/${t.course}/tests/${id}`, { is_published: t.published }));
      } else if (op === 6) {
        const course = rnd.pick(courses);
        const body = {
          has_deadline: rnd.chance(0.7),
          deadline_type: rnd.pick(['from_enrollment', 'from_start'] as const),
          deadline_value: 1 + rnd.int(3),
          deadline_warning_days: rnd.int(2),
          has_recurrence: rnd.chance(0.6),
          recurrence_value: 1 + rnd.int(2),
        };
        what = `course ${course} settings ${JSON.stringify(body)}`;
        fine(what, await admin.put(`/api/courses/${course}`, body));
      } else if (op === 7) {
        const course = rnd.pick(courses);
        const attach = rnd.chance(0.6);
        what = `course ${course} ${attach ? 'attached to' : 'detached from'} ${learner.id}`;
        fine(
          what,
          await admin.post(`/api/admin/user-courses/${attach ? 'attach' : 'detach'}`, {
            user_id: learner.id,
            course_ids: [course],
          }),
        );
      } else if (op === 8) {
        const [id, l] = rnd.pick([...lessons]);
        what = `lesson ${id} deleted`;
        fine(what, await admin.delete(`/api/courses/lessons/${id}`));
        lessons.delete(id);
        const made = await admin.post('/api/courses/lessons', { module_id: l.module });
        fine('lesson created', made);
        const newId = made.json().result.item.id as number;
        lessons.set(newId, { course: l.course, module: l.module, published: false });
      } else if (op === 9) {
        what = 'renewal pass';
        await ctx.app.jobs.renewLearningStates();
      } else if (op === 10) {
        // Written past the services, as a seeder or another process would; a lesson someone has
        // started when there is one, so that a home answer shows its name.
        const started = await ctx.db.kysely
          .selectFrom('lesson_progress')
          .select('lesson_id')
          .where('completed_at', 'is', null)
          .execute();
        const id = started.length > 0 ? rnd.pick(started).lesson_id : rnd.pick([...lessons])[0];
        what = `lesson ${id} renamed`;
        await ctx.db.kysely
          .updateTable('lessons')
          .set({ name: `Урок ${rnd.int(1000)}` })
          .where('id', '=', id)
          .execute();
      } else if (op === 11) {
        const course = rnd.pick(courses);
        what = `course ${course} renamed`;
        await ctx.db.kysely
          .updateTable('courses')
          .set({ title: `Курс ${rnd.int(1000)}` })
          .where('id', '=', course)
          .execute();
      } else if (advanced < 20 * DAY) {
        const by = rnd.chance(0.5) ? rnd.int(6) * HOUR + 1000 : DAY + rnd.int(12) * HOUR;
        advanced += by;
        ctx.clock.advance(by);
        what = `time +${(by / HOUR).toFixed(1)} h`;
      } else return undefined;
      return what;
    };
    return { learners, userIds, step };
  }

  it('through lessons, attempts, publishing, deletion, settings, enrollment and time, in a long random sequence', async () => {
    const { userIds, step: randomStep } = await randomCompany(20261124);
    for (let step = 0; step < 80; step++) {
      const what = await randomStep();
      if (what === undefined) continue;
      await expectExact(`step ${step}: ${what}`, userIds);
    }
    const kept = await ctx.db.kysely.selectFrom('learning_states').select('user_id').execute();
    expect(kept.length).toBeGreaterThan(0);
    // A long sequence with a full rebuild after each step: its own budget, not the default per test.
  }, 180_000);

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
