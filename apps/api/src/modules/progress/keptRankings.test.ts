import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, iso } from '../../platform/clock.js';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import type { StoredState } from './engine.js';
import type { LearningEngine } from './service.js';
import { learningStatesOver } from './standalone.js';
import { rankingChanged } from './urgency.js';

describe(`kept rankings (${dialectName})`, () => {
  let ctx: TestContext;
  let engine: LearningEngine;
  let kept: ReturnType<typeof learningStatesOver>;
  beforeEach(async () => {
    ctx = await createTestApp();
    kept = learningStatesOver(new UnitOfWork(ctx.db.kysely, ctx.db.kind), ctx.clock);
    engine = kept.engine;
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('keeps the ranking made after the other writer of the same user has committed', async () => {
    const k = ctx.db.kysely;
    const user = (await createUser(ctx.db, { role: 'learner' })).id;
    const [first, second] = [await createCourse(ctx.db, 'Первый'), await createCourse(ctx.db, 'Второй')];
    const lessons = new Map<number, number[]>();
    for (const [id, days] of [
      [first, 1],
      [second, 5],
    ] as const) {
      lessons.set(id, (await createModuleWith(ctx.db, id, { lessons: 1 })).lessonIds);
      await k
        .updateTable('courses')
        .set({ has_deadline: true, deadline_type: 'from_enrollment', deadline_value: days, deadline_warning_days: 0 })
        .where('id', '=', id)
        .execute();
      await k
        .insertInto('user_courses')
        .values({ user_id: user, course_id: id, assigned_at: iso(ctx.clock.now()) })
        .execute();
    }
    await kept.enrollment.refresh({ userIds: [user] });
    ctx.clock.advance(2 * DAY);
    await kept.states.renewExpired();
    expect((await engine.mostUrgent({ userIds: [user] })).get(user)).toMatchObject({
      course_id: first,
      status: 'overdue',
    });

    // One transaction completes the overdue course and holds; a second one completes the other course
    // meanwhile, a change the ranking reads (on PostgreSQL it waits for the first; SQLite runs them one
    // by one).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let refreshed = () => {};
    const firstDone = new Promise<void>((resolve) => (refreshed = resolve));
    const writer = (courseId: number, completed: boolean, wait?: Promise<void>) =>
      k.transaction().execute(async (trx) => {
        await trx
          .insertInto('lesson_progress')
          .values({
            user_id: user,
            lesson_id: lessons.get(courseId)?.[0] ?? 0,
            started_at: iso(ctx.clock.now()),
            completed_at: completed ? iso(ctx.clock.now()) : null,
          })
          .execute();
        await learningStatesOver({ db: trx }, ctx.clock).states.refresh({ userIds: [user], courseIds: [courseId] });
        refreshed();
        await wait;
      });
    const one = writer(first, true, held);
    await firstDone;
    const two = writer(second, true);
    if (ctx.db.kind === 'postgres') {
      // Until the second transaction waits for a lock the first one holds.
      let waiting = 0;
      for (let i = 0; i < 2000 && waiting === 0; i++)
        waiting =
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database()`.execute(k)
          ).rows[0]?.n ?? 0;
      expect(waiting).toBe(1);
    }
    release();
    await Promise.all([one, two]);
    // The completed course is in order now and, with the earliest deadline, still the one shown.
    expect((await engine.mostUrgent({ userIds: [user] })).get(user)).toMatchObject({
      course_id: first,
      status: 'in_order',
      progress: 100,
    });
  });
});

describe('rankingChanged: whose kept ranking a rewrite of learning states can change', () => {
  const row: StoredState = {
    user_id: 1,
    course_id: 10,
    cycle: 1,
    cycle_start: '2026-03-01T00:00:00.000Z',
    started_at: '2026-03-02T00:00:00.000Z',
    completed_at: null,
    lessons_completed: 1,
    tests_completed: 0,
    deadline: '2026-04-01T00:00:00.000Z',
    valid_until: null,
    enrolled_at: '2026-03-01T00:00:00.000Z',
    warning_at: '2026-03-25T00:00:00.000Z',
  };
  const other = { ...row, user_id: 2, course_id: 11 };

  it('names the user when anything the ranking reads changes, or an enrolled row comes or goes', () => {
    const read: Partial<StoredState>[] = [
      { completed_at: '2026-03-03T00:00:00.000Z' },
      { deadline: '2026-05-01T00:00:00.000Z' },
      { deadline: null },
      { warning_at: '2026-03-20T00:00:00.000Z' },
      { valid_until: '2027-03-03T00:00:00.000Z' },
      { enrolled_at: '2026-03-02T00:00:00.000Z' },
      { enrolled_at: null },
      { lessons_completed: 2 },
      { tests_completed: 1 },
    ];
    for (const change of read) expect(rankingChanged([row, other], [{ ...row, ...change }, other])).toEqual([1]);
    expect(rankingChanged([row, other], [other])).toEqual([1]);
    expect(rankingChanged([other], [row, other])).toEqual([1]);
    expect(rankingChanged([{ ...row, enrolled_at: null }], [row])).toEqual([1]);
  });

  it('leaves it when only what the ranking does not read changes, or rows of no enrollment', () => {
    const unread: Partial<StoredState>[] = [
      { started_at: '2026-03-05T00:00:00.000Z' },
      { started_at: null },
      { cycle: 2, cycle_start: '2026-03-04T00:00:00.000Z' },
      // The same moment written otherwise (as PostgreSQL may return it).
      { deadline: '2026-04-01T00:00:00Z' },
    ];
    for (const change of unread) expect(rankingChanged([row, other], [{ ...row, ...change }, other])).toEqual([]);
    const recordOnly = { ...row, enrolled_at: null };
    expect(rankingChanged([], [recordOnly])).toEqual([]);
    expect(rankingChanged([recordOnly], [])).toEqual([]);
    expect(rankingChanged([recordOnly], [{ ...recordOnly, completed_at: '2026-03-03T00:00:00.000Z' }])).toEqual([]);
  });
});
