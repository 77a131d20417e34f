import { random } from '../../test/random.js';
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
  type TestContext,
} from '../../test/harness.js';
import { CoursesRepository } from '../courses/repository.js';
import { stateKey, type LearningEngine } from './service.js';
import { learningStatesOver } from './standalone.js';

describe(`maintained learning state equals the engine's recomputation after any events (${dialectName})`, () => {
  let ctx: TestContext;
  let engine: LearningEngine;
  let uow: UnitOfWork;
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const kept = learningStatesOver(uow, ctx.clock);
    engine = kept.engine;
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
});
