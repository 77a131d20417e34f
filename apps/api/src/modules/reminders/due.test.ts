import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, iso } from '../../platform/clock.js';
import { createCourse, createTestApp, createUser, dialectName, type TestContext } from '../../test/harness.js';
import { random } from '../../test/random.js';
import { deadlineStatus, warningAt } from '../progress/engine.js';
import { RemindersRepository, type DueReminder, type ReminderKind } from './repository.js';

const KINDS: readonly ReminderKind[] = ['reminder_almost_overdue', 'reminder_overdue', 'reminder_new_cycle'];

interface Course {
  id: number;
  has_deadline: boolean;
  deadline_warning_days: number;
  is_published: boolean;
  accessibility: string;
  deleted: boolean;
}

interface State {
  user_id: number;
  course_id: number;
  cycle: number;
  deadline: string | null;
  enrolled: boolean;
  completed: boolean;
}

/**
 * Issue 16's rule, restated over the engine's deadline status: past the deadline the overdue
 * reminder once per cycle and nothing else; in the warning window the warning once; otherwise (or
 * once the warning went) the re-certification reminder of a cycle after the first.
 */
function expectedKind(s: State, course: Course, sent: ReadonlySet<ReminderKind>, now: Date): ReminderKind | null {
  if (course.has_deadline && s.deadline !== null) {
    const status = deadlineStatus(Date.parse(s.deadline), course.deadline_warning_days, false, now.getTime());
    if (status === 'overdue') return sent.has('reminder_overdue') ? null : 'reminder_overdue';
    if (status === 'almost_overdue' && !sent.has('reminder_almost_overdue')) return 'reminder_almost_overdue';
  }
  if (s.cycle > 1 && !sent.has('reminder_new_cycle')) return 'reminder_new_cycle';
  return null;
}

describe(`the reminders due now, decided in the query (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('gives exactly the kind the rule gives for every state, at the boundaries of each window', async () => {
    const k = ctx.db.kysely;
    const rnd = random(16);
    const now = new Date('2026-05-04T10:00:00.000Z');
    const courses: Course[] = [];
    for (let i = 0; i < 8; i++) {
      const c: Course = {
        id: await createCourse(ctx.db, `Курс ${i}`, { is_published: i !== 6 }),
        has_deadline: i % 4 !== 3,
        deadline_warning_days: [0, 1, 3, 7][i % 4] as number,
        is_published: i !== 6,
        accessibility: i === 5 ? 'nobody' : 'everyone',
        deleted: i === 7,
      };
      await k
        .updateTable('courses')
        .set({
          has_deadline: c.has_deadline,
          deadline_value: 10,
          deadline_warning_days: c.deadline_warning_days,
          accessibility: c.accessibility as 'everyone',
          deleted_at: c.deleted ? iso(now) : null,
        })
        .where('id', '=', c.id)
        .execute();
      courses.push(c);
    }
    const users: { id: number; wants: boolean; deleted: boolean }[] = [];
    for (let i = 0; i < 30; i++) {
      const u = await createUser(ctx.db, { role: 'learner' });
      const user = { id: u.id, wants: i % 5 !== 4, deleted: i === 29 };
      await k
        .updateTable('users')
        .set({ reminder_mails: user.wants, deleted_at: user.deleted ? iso(now) : null })
        .where('id', '=', u.id)
        .execute();
      users.push(user);
    }
    const states: State[] = [];
    const sent = new Map<string, Set<ReminderKind>>();
    const key = (userId: number, courseId: number, cycle: number) => `${userId}:${courseId}:${cycle}`;
    for (const user of users)
      for (const course of courses) {
        // The moments where the rule changes its answer, and a little on either side of them.
        const w = course.deadline_warning_days * DAY;
        const offset = rnd.pick([-5 * DAY, -1, 0, 1, w - 1, w, w + 1, 20 * DAY, null]);
        const s: State = {
          user_id: user.id,
          course_id: course.id,
          cycle: 1 + rnd.int(3),
          deadline: offset === null || !course.has_deadline ? null : iso(new Date(now.getTime() + offset)),
          enrolled: rnd.chance(0.9),
          completed: rnd.chance(0.1),
        };
        states.push(s);
        const given = new Set(rnd.some(KINDS));
        sent.set(key(s.user_id, s.course_id, s.cycle), given);
        // Mails of an earlier cycle say nothing about this one.
        const earlier = s.cycle > 1 ? rnd.some(KINDS) : [];
        const deliveries = [
          ...[...given].map((kind) => ({ cycle: s.cycle, kind })),
          ...earlier.map((kind) => ({ cycle: s.cycle - 1, kind })),
        ];
        if (deliveries.length > 0)
          await k
            .insertInto('reminder_deliveries')
            .values(deliveries.map((d) => ({ user_id: s.user_id, course_id: s.course_id, ...d, sent_at: iso(now) })))
            .execute();
      }
    await k
      .insertInto('learning_states')
      .values(
        states.map((s) => ({
          user_id: s.user_id,
          course_id: s.course_id,
          cycle: s.cycle,
          cycle_start: null,
          started_at: null,
          completed_at: s.completed ? iso(now) : null,
          lessons_completed: 0,
          tests_completed: 0,
          deadline: s.deadline,
          valid_until: null,
          enrolled_at: s.enrolled ? iso(new Date(now.getTime() - 30 * DAY)) : null,
          warning_at: warningAt(courses.find((c) => c.id === s.course_id) as Course, s.deadline),
        })),
      )
      .execute();

    const expected: DueReminder[] = [];
    for (const s of states) {
      const course = courses.find((c) => c.id === s.course_id) as Course;
      const user = users.find((u) => u.id === s.user_id);
      const reachable = course.is_published && course.accessibility !== 'nobody' && !course.deleted;
      if (!s.enrolled || s.completed || !reachable || !user?.wants || user.deleted) continue;
      const kind = expectedKind(s, course, sent.get(key(s.user_id, s.course_id, s.cycle)) ?? new Set(), now);
      if (kind)
        expected.push({ user_id: s.user_id, course_id: s.course_id, cycle: s.cycle, deadline: s.deadline, kind });
    }
    const order = (a: DueReminder, b: DueReminder) => a.user_id - b.user_id || a.course_id - b.course_id;
    expected.sort(order);
    // Every kind and every reason to send nothing occur in the sample.
    for (const kind of KINDS) expect(expected.some((e) => e.kind === kind)).toBe(true);
    expect(expected.length).toBeLessThan(states.length / 2);

    const repo = new RemindersRepository({ db: k, kind: ctx.db.kind });
    const due = await repo.due(iso(now), 10_000);
    expect([...due].sort(order)).toEqual(expected);

    // A limit gives that many of the same reminders.
    const some = await repo.due(iso(now), 5);
    expect(some).toHaveLength(5);
    for (const d of some) expect(expected).toContainEqual(d);
  });
});
