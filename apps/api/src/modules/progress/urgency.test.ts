import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, HOUR, iso } from '../../platform/clock.js';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { random } from '../../test/random.js';
import { CoursesRepository } from '../courses/repository.js';
import { CoursesService } from '../courses/service.js';
import type { CourseState, DeadlineStatus } from './engine.js';
import type { LearningEngine } from './service.js';
import { learningStatesOver } from './standalone.js';
import { urgencyEntries, type UrgencyEntry, type UrgentCourse } from './urgency.js';

const RANK: Record<DeadlineStatus, number> = { overdue: 0, almost_overdue: 1, in_order: 2 };

/**
 * docs/rules.md §Analytics, restated over the engine's full recomputation: a user's most urgent
 * enrolled course is overdue before almost overdue before in order (no deadline: in order), then the
 * earliest deadline (none last), then the lower course id.
 */
function expectedUrgent(states: Map<string, CourseState>, titles: ReadonlyMap<number, string>) {
  const best = new Map<number, CourseState>();
  const key = (s: CourseState) =>
    [
      RANK[s.deadline_status ?? 'in_order'],
      s.deadline ? Date.parse(s.deadline) : Number.POSITIVE_INFINITY,
      s.course_id,
    ] as const;
  for (const [k, s] of states) {
    const userId = Number(k.split(':')[0]);
    const held = best.get(userId);
    const [a, b] = [key(s), held ? key(held) : undefined];
    if (!b || a[0] - b[0] < 0 || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2]))))
      best.set(userId, s);
  }
  const out = new Map<number, UrgentCourse>();
  for (const [userId, s] of best)
    out.set(userId, {
      course_id: s.course_id,
      title: titles.get(s.course_id) ?? '',
      deadline: s.deadline,
      status: s.deadline_status,
      progress: s.progress,
    });
  return out;
}

const sorted = (m: Map<number, UrgentCourse>) => [...m].sort(([a], [b]) => a - b);

describe(`each user's most urgent course from the maintained rows equals the engine's recomputation (${dialectName})`, () => {
  let ctx: TestContext;
  let engine: LearningEngine;
  let kept: ReturnType<typeof learningStatesOver>;
  let uow: UnitOfWork;
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    kept = learningStatesOver(uow, ctx.clock);
    engine = kept.engine;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('through enrollments, records, settings, deletion and time, stale rows and equal deadlines included', async () => {
    const rnd = random(20261123);
    const k = ctx.db.kysely;
    const now = () => ctx.clock.now().getTime();
    const at = (offset: number) => new Date(now() + offset).toISOString();

    const users: number[] = [];
    for (let i = 0; i < 9; i++) users.push((await createUser(ctx.db, { role: 'learner' })).id);
    const courses: { id: number; lessons: number[]; tests: number[] }[] = [];
    for (let c = 0; c < 6; c++) {
      const id = await createCourse(ctx.db, `Курс ${c}`, { is_published: c !== 5 });
      const made = await createModuleWith(ctx.db, id, { lessons: 2, tests: 1 });
      courses.push({ id, lessons: made.lessonIds, tests: made.testIds });
    }
    const live = () => courses.filter((c) => !deleted.has(c.id));
    const deleted = new Set<number>();
    const attempts = new Map<string, number>();

    const settings = async (courseId: number) => {
      await k
        .updateTable('courses')
        .set({
          has_deadline: rnd.chance(0.8),
          deadline_type: rnd.chance(0.7) ? 'from_enrollment' : 'from_start',
          deadline_value: 1 + rnd.int(6),
          deadline_warning_days: rnd.int(4),
          has_recurrence: rnd.chance(0.4),
          recurrence_value: 1 + rnd.int(4),
        })
        .where('id', '=', courseId)
        .execute();
      await kept.states.refresh({ courseIds: [courseId] });
    };
    for (const c of courses) await settings(c.id);
    // Two courses with the same rules, attached at the same instant: equal deadlines, the lower id wins.
    await k
      .updateTable('courses')
      .set({ has_deadline: true, deadline_type: 'from_enrollment', deadline_value: 3, deadline_warning_days: 2 })
      .where('id', 'in', [courses[0]?.id ?? 0, courses[1]?.id ?? 0])
      .execute();
    await kept.states.refresh({ courseIds: [courses[0]?.id ?? 0, courses[1]?.id ?? 0] });

    const attach = async (userId: number, courseIds: number[], when: string) => {
      for (const courseId of courseIds)
        await k
          .insertInto('user_courses')
          .values({ user_id: userId, course_id: courseId, assigned_at: when })
          .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
          .execute();
      await kept.enrollment.refresh({ userIds: [userId] });
    };
    for (const u of users.slice(0, 7)) {
      const when = at(-rnd.int(4) * DAY);
      await attach(u, [courses[0]?.id ?? 0, courses[1]?.id ?? 0], when);
      await attach(
        u,
        rnd.some(courses.slice(2)).map((c) => c.id),
        at(-rnd.int(5) * DAY - rnd.int(20) * HOUR),
      );
    }

    const seen = new Set<string>();
    const check = async (step: string) => {
      const titles = new Map(
        (await k.selectFrom('courses').select(['id', 'title']).execute()).map((c) => [c.id, c.title]),
      );
      const full = await engine.states(users, undefined, { enrolledOnly: true });
      const expected = expectedUrgent(full, titles);
      for (const e of expected.values()) seen.add(e.status ?? 'none');
      // The digest's read: exactly the overdue and almost overdue pairs of the full recomputation,
      // but for rows past their `valid_until`, which the reminder pass renews before its digests.
      const attention = (keys: Iterable<string>) => [...keys].sort();
      const renewable = new Set(
        (
          await k
            .selectFrom('learning_states')
            .select(['user_id', 'course_id'])
            .where('user_id', 'in', users)
            .where('valid_until', '<=', iso(ctx.clock.now()))
            .execute()
        ).map((r) => `${r.user_id}:${r.course_id}`),
      );
      const wantAttention = [...full]
        .filter(([key]) => !renewable.has(key))
        .filter(([, s]) => s.deadline_status === 'overdue' || s.deadline_status === 'almost_overdue')
        .map(([key, s]) => `${key} ${s.deadline_status} ${s.deadline}`);
      const gotAttention = (await engine.attentionCourses(users, ctx.clock.now())).map(
        (s) => `${s.user_id}:${s.course_id} ${s.overdue ? 'overdue' : 'almost_overdue'} ${s.deadline}`,
      );
      expect(attention(gotAttention), `${step}: attention`).toEqual(attention(wantAttention));
      // The kept rankings that still hold say what ranking the rows now says; the others are overtaken.
      const nowIso = iso(ctx.clock.now());
      const keptRows = await k.selectFrom('user_urgency').selectAll().where('user_id', 'in', users).execute();
      const ranked = new Map((await urgencyEntries(k, users, nowIso)).map((e) => [e.user_id, e]));
      for (const row of keptRows) {
        if (row.stable_until !== null && Date.parse(row.stable_until) <= ctx.clock.now().getTime()) {
          overtaken++;
          continue;
        }
        held++;
        const choice = ({ course_id, status, deadline, done }: UrgencyEntry) => ({
          course_id,
          status,
          deadline: deadline && Date.parse(deadline),
          done,
        });
        expect(choice(row), `${step}: kept ranking of ${row.user_id}`).toEqual(
          choice(ranked.get(row.user_id) ?? { ...row, course_id: null, status: null, deadline: null, done: 0 }),
        );
      }
      // Everyone with an enrolled row of a live course has a kept ranking; the others none or an empty one.
      expect(
        keptRows
          .filter((r) => r.course_id !== null || r.stable_until !== null)
          .map((r) => r.user_id)
          .sort(),
        `${step}: kept rankings`,
      ).toEqual([...ranked.keys()].sort());
      const everyone = await engine.mostUrgent('everyone');
      expect(sorted(new Map([...everyone].filter(([u]) => users.includes(u)))), step).toEqual(sorted(expected));
      const some = rnd.some(users);
      expect(sorted(await engine.mostUrgent({ userIds: some })), `${step}: users ${some.join(',')}`).toEqual(
        sorted(new Map([...expected].filter(([u]) => some.includes(u)))),
      );
    };

    const lesson = (user: number, id: number, done: boolean) =>
      k
        .insertInto('lesson_progress')
        .values({ user_id: user, lesson_id: id, started_at: at(-HOUR), completed_at: done ? at(-1000) : null })
        .execute();
    const attempt = async (user: number, test: number, passed: boolean) => {
      const n = (attempts.get(`${user}:${test}`) ?? 0) + 1;
      attempts.set(`${user}:${test}`, n);
      await k
        .insertInto('test_attempts')
        .values({
          user_id: user,
          test_id: test,
          attempt_number: n,
          started_at: at(-2 * HOUR),
          finished_at: at(-500),
          open_marker: null,
          question_order: '[]',
          answer_order: '{}',
          score: passed ? 100 : 0,
          correct_answers: passed ? 1 : 0,
          is_passed: passed,
        })
        .execute();
    };

    let stale = 0;
    let held = 0;
    let overtaken = 0;
    await check('start');
    for (let step = 0; step < 45; step++) {
      const user = rnd.pick(users);
      const op = rnd.int(10);
      let what: string;
      if (op <= 1) {
        const course = rnd.pick(live());
        const id = rnd.pick(course.lessons);
        const done = rnd.chance(0.7);
        what = `user ${user} lesson ${id} ${done ? 'completed' : 'started'}`;
        await lesson(user, id, done);
        await kept.states.refresh({ userIds: [user] });
      } else if (op <= 3) {
        // The whole course (a cycle completed: with recurrence, the row holds until the next one opens).
        const course = rnd.pick(live());
        const passed = rnd.chance(0.8);
        what = `user ${user} course ${course.id} ${passed ? 'completed' : 'all but the test'}`;
        for (const l of course.lessons) await lesson(user, l, true);
        for (const t of course.tests) await attempt(user, t, passed);
        await kept.states.refresh({ userIds: [user] });
      } else if (op === 4) {
        const course = rnd.pick(live());
        what = `course ${course.id} settings`;
        await settings(course.id);
      } else if (op === 5) {
        const course = rnd.pick(live());
        what = `course ${course.id} attached to ${user}`;
        await attach(user, [course.id], at(-rnd.int(3) * DAY));
      } else if (op === 6 && step > 30 && live().length > 4) {
        const course = rnd.pick(live().slice(2));
        what = `course ${course.id} deleted`;
        await new CoursesService(uow, new CoursesRepository(uow), kept.enrollment).delete(
          { ids: [course.id] },
          iso(ctx.clock.now()),
        );
        deleted.add(course.id);
      } else if (op === 7 && rnd.chance(0.5)) {
        what = 'renewal pass';
        await kept.states.renewExpired();
      } else {
        const by = rnd.chance(0.5) ? rnd.int(8) * HOUR + 1 : DAY + rnd.int(30) * HOUR;
        what = `time +${(by / HOUR).toFixed(1)} h`;
        ctx.clock.advance(by);
      }
      const pastValid = await k
        .selectFrom('learning_states')
        .select('user_id')
        .where('valid_until', '<=', iso(ctx.clock.now()))
        .where('enrolled_at', 'is not', null)
        .execute();
      stale += pastValid.length;
      await check(`step ${step}: ${what}`);
    }
    // The sequence must have reached rows whose next cycle opened before the renewal pass came.
    expect(stale).toBeGreaterThan(0);
    // Both ways of answering were taken: kept rankings that held, and rankings that time overtook.
    expect(held).toBeGreaterThan(100);
    expect(overtaken).toBeGreaterThan(10);
    expect([...seen].sort()).toEqual(['almost_overdue', 'in_order', 'none', 'overdue']);

    // A row whose next cycle opened and that no pass has renewed yet: recomputed for the answer, and
    // it wins over the user's other course (overdue in its new cycle), or is the user's only course.
    const course = live()[2] ?? { id: 0, lessons: [], tests: [] };
    await k
      .updateTable('courses')
      .set({
        has_deadline: true,
        deadline_type: 'from_enrollment',
        deadline_value: 1,
        deadline_warning_days: 0,
        has_recurrence: true,
        recurrence_value: 2,
      })
      .where('id', '=', course.id)
      .execute();
    await kept.states.refresh({ courseIds: [course.id] });
    const calm = await createCourse(ctx.db, 'Без срока');
    await createModuleWith(ctx.db, calm, { lessons: 1 });
    const [alone, paired] = [
      (await createUser(ctx.db, { role: 'learner' })).id,
      (await createUser(ctx.db, { role: 'learner' })).id,
    ];
    users.push(alone, paired);
    await attach(alone, [course.id], at(0));
    await attach(paired, [course.id, calm], at(0));
    for (const u of [alone, paired]) {
      for (const l of course.lessons) await lesson(u, l, true);
      for (const t of course.tests) await attempt(u, t, true);
      await kept.states.refresh({ userIds: [u] });
    }
    ctx.clock.advance(3 * DAY + HOUR);
    const expired = await k
      .selectFrom('learning_states')
      .select('user_id')
      .where('course_id', '=', course.id)
      .where('user_id', 'in', [alone, paired])
      .where('valid_until', '<=', iso(ctx.clock.now()))
      .execute();
    expect(expired).toHaveLength(2);
    await check('a completed cycle ended and its row is not renewed yet');
    expect((await engine.mostUrgent({ userIds: [alone, paired] })).get(paired)).toMatchObject({
      course_id: course.id,
      status: 'overdue',
    });

    // Time alone moves a kept ranking: a later deadline whose longer warning window opens first makes
    // the user almost overdue on that course, then the earlier deadline passes and wins as overdue.
    const [early, late] = [
      await createCourse(ctx.db, 'Ранний срок'),
      await createCourse(ctx.db, 'Долгое предупреждение'),
    ];
    for (const [id, days, warning] of [
      [early, 4, 0],
      [late, 5, 3],
    ] as const) {
      await createModuleWith(ctx.db, id, { lessons: 1 });
      await k
        .updateTable('courses')
        .set({
          has_deadline: true,
          deadline_type: 'from_enrollment',
          deadline_value: days,
          deadline_warning_days: warning,
        })
        .where('id', '=', id)
        .execute();
      await kept.states.refresh({ courseIds: [id] });
    }
    const waiting = (await createUser(ctx.db, { role: 'learner' })).id;
    users.push(waiting);
    await attach(waiting, [early, late], at(0));
    const statusOf = async () => (await engine.mostUrgent({ userIds: [waiting] })).get(waiting);
    expect(await statusOf()).toMatchObject({ course_id: early, status: 'in_order' });
    for (let hour = 0; hour < 5 * 24; hour += 6) {
      ctx.clock.advance(6 * HOUR);
      await check(`hour ${hour + 6} of two deadlines`);
    }
    expect(await statusOf()).toMatchObject({ course_id: early, status: 'overdue' });

    // Every enrollment has its row, with its time (the query reads the enrollment from the row).
    const enrollments = await k.selectFrom('enrollments').select(['user_id', 'course_id', 'enrolled_at']).execute();
    const rows = await kept.reads.rows(users);
    for (const e of enrollments) {
      const row = rows.get(`${e.user_id}:${e.course_id}`);
      expect(row && Date.parse(row.enrolled_at ?? ''), `${e.user_id}:${e.course_id}`).toBe(Date.parse(e.enrolled_at));
    }
  }, 120_000);
});
