import { describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  asIso,
  courseState,
  isVisible,
  lessonInCycle,
  summaryOf,
  type AttemptRecord,
  type CourseRules,
  type LessonRecord,
} from './engine.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const ahead = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

const rules = (over: Partial<CourseRules> = {}): CourseRules => ({
  id: 1,
  is_published: true,
  accessibility: 'enrolled_only',
  has_deadline: false,
  deadline_type: 'from_enrollment',
  deadline_value: 30,
  deadline_warning_days: 3,
  has_recurrence: false,
  recurrence_value: 30,
  ...over,
});

const lessonsDone = (...pairs: [number, string | null, string | null][]) =>
  new Map<number, LessonRecord[]>(pairs.map(([id, s, c]) => [id, [{ started_at: s, completed_at: c }]]));
const attempts = (...pairs: [number, AttemptRecord[]][]) => new Map<number, AttemptRecord[]>(pairs);
const passed = (days: number): AttemptRecord => ({
  started_at: ago(days + 0.01),
  finished_at: ago(days),
  is_passed: true,
});
const failed = (days: number): AttemptRecord => ({
  started_at: ago(days + 0.01),
  finished_at: ago(days),
  is_passed: false,
});

const TWO_LESSONS_ONE_TEST = { lessonIds: [11, 12], testIds: [21] };

describe('learning engine: progress', () => {
  it.each([
    ['nothing done', new Map(), new Map(), 0, 0, 0, false],
    ['one lesson of three', lessonsDone([11, ago(2), ago(1)]), new Map(), 1, 0, 33, false],
    ['a started lesson does not count', lessonsDone([11, ago(2), null]), new Map(), 0, 0, 0, false],
    ['a failed test does not count', new Map(), attempts([21, [failed(1)]]), 0, 0, 0, false],
    ['a test counts when any attempt passed', new Map(), attempts([21, [failed(3), passed(1)]]), 0, 1, 33, false],
    [
      'completed without a start counts',
      lessonsDone([11, null, ago(1)], [12, null, ago(1)]),
      attempts([21, [passed(1)]]),
      2,
      1,
      100,
      true,
    ],
  ])('%s', (_name, lessons, tests, lDone, tDone, progress, complete) => {
    const s = courseState({
      course: rules(),
      items: TWO_LESSONS_ONE_TEST,
      records: { lessons, attempts: tests },
      enrolledAt: ago(10),
      now: NOW,
    });
    expect(s.lessons).toEqual({ total: 2, completed: lDone });
    expect(s.tests).toEqual({ total: 1, completed: tDone });
    expect(s.progress).toBe(progress);
    expect(s.complete).toBe(complete);
  });

  it('a course with no published items is never complete', () => {
    const s = courseState({
      course: rules(),
      items: { lessonIds: [], testIds: [] },
      records: { lessons: new Map(), attempts: new Map() },
      enrolledAt: ago(1),
      now: NOW,
    });
    expect(s).toMatchObject({ items_total: 0, progress: 0, complete: false });
  });

  it('gives each item its status', () => {
    const s = courseState({
      course: rules(),
      items: { lessonIds: [11, 12, 13], testIds: [21, 22, 23, 24] },
      records: {
        lessons: lessonsDone([11, ago(2), ago(1)], [12, ago(1), null]),
        attempts: attempts(
          [21, [passed(1)]],
          [22, [failed(1)]],
          [23, [{ started_at: ago(0.01), finished_at: null, is_passed: null }]],
        ),
      },
      enrolledAt: ago(5),
      now: NOW,
    });
    expect(s.items.map((i) => `${i.type}${i.id}:${i.status}`)).toEqual([
      'lesson11:completed',
      'lesson12:in_progress',
      'lesson13:not_started',
      'test21:completed',
      'test22:failed',
      'test23:in_progress',
      'test24:not_started',
    ]);
    expect(s.started_at).toBe(ago(2));
  });
});

describe('learning engine: deadlines', () => {
  const state = (course: CourseRules, enrolledAt: string | null, lessons = new Map<number, LessonRecord[]>()) =>
    courseState({
      course,
      items: { lessonIds: [11], testIds: [] },
      records: { lessons, attempts: new Map() },
      enrolledAt,
      now: NOW,
    });

  it.each([
    ['no deadline setting', rules(), ago(100), null, null],
    ['from enrollment, well ahead', rules({ has_deadline: true }), ago(10), ahead(20), 'in_order'],
    ['from enrollment, within the warning days', rules({ has_deadline: true }), ago(28), ahead(2), 'almost_overdue'],
    [
      'from enrollment, exactly at the warning start',
      rules({ has_deadline: true }),
      ago(27),
      ahead(3),
      'almost_overdue',
    ],
    ['from enrollment, a day before the warning', rules({ has_deadline: true }), ago(26), ahead(4), 'in_order'],
    ['from enrollment, past', rules({ has_deadline: true }), ago(31), ago(1), 'overdue'],
    ['warning days 0', rules({ has_deadline: true, deadline_warning_days: 0 }), ago(29), ahead(1), 'in_order'],
    [
      'not enrolled: no enrollment to count from',
      rules({ has_deadline: true, accessibility: 'everyone' }),
      null,
      null,
      null,
    ],
  ])('%s', (_n, course, enrolledAt, deadline, status) => {
    const s = state(course, enrolledAt);
    expect(s.deadline).toBe(deadline);
    expect(s.deadline_status).toBe(status);
  });

  it('from_start without a start has no deadline; with a start it counts from the first start', () => {
    const course = rules({ has_deadline: true, deadline_type: 'from_start', deadline_value: 10 });
    expect(state(course, ago(100)).deadline).toBeNull();
    const started = state(course, ago(100), lessonsDone([11, ago(9), null]));
    expect(started.deadline).toBe(ahead(1));
    expect(started.deadline_status).toBe('almost_overdue');
  });

  it('a completed course is in order even after its deadline', () => {
    const s = state(rules({ has_deadline: true }), ago(60), lessonsDone([11, ago(50), ago(40)]));
    expect(s.complete).toBe(true);
    expect(s.deadline_status).toBe('in_order');
  });
});

describe('learning engine: recurrence', () => {
  const course = rules({ has_deadline: true, deadline_value: 14, has_recurrence: true, recurrence_value: 30 });
  const run = (records: Map<number, LessonRecord[]>, now = NOW) =>
    courseState({
      course,
      items: { lessonIds: [11], testIds: [] },
      records: { lessons: records, attempts: new Map() },
      enrolledAt: ago(100),
      now,
    });

  it('stays in the first cycle until recurrence_value days after completion', () => {
    const s = run(lessonsDone([11, ago(40), ago(29)]));
    expect(s).toMatchObject({ cycle: 1, complete: true, progress: 100, cycle_start: ago(100) });
  });

  it('starts a new cycle: progress counts only records since the cycle start, the deadline from it', () => {
    const s = run(lessonsDone([11, ago(40), ago(35)]));
    expect(s).toMatchObject({ cycle: 2, complete: false, progress: 0, cycle_start: ago(5) });
    expect(s.deadline).toBe(ahead(9));
    expect(s.items[0]?.status).toBe('not_started');
  });

  it('counts two cycles from timestamps and keeps history', () => {
    const records = new Map<number, LessonRecord[]>([
      [
        11,
        [
          { started_at: ago(90), completed_at: ago(80) }, // cycle 1 done → cycle 2 starts ago(50)
          { started_at: ago(45), completed_at: ago(40) }, // cycle 2 done → cycle 3 starts ago(10)
          { started_at: ago(3), completed_at: null }, // cycle 3 started
        ],
      ],
    ]);
    const s = run(records);
    expect(s.cycle).toBe(3);
    expect(s.cycle_start).toBe(ago(10));
    expect(s.items[0]?.status).toBe('in_progress');
    expect(s.deadline).toBe(ahead(4));
    expect(s.deadline_status).toBe('in_order');
  });

  it('a cycle overdue in the second round', () => {
    const s = run(lessonsDone([11, ago(80), ago(75)]));
    // completed ago(75) → cycle 2 from ago(45), deadline ago(31)
    expect(s).toMatchObject({ cycle: 2, deadline_status: 'overdue', deadline: ago(31) });
  });
});

describe('visibility', () => {
  it.each([
    [true, 'everyone', false, true],
    [true, 'enrolled_only', false, false],
    [true, 'enrolled_only', true, true],
    [true, 'nobody', true, false],
    [false, 'everyone', true, false],
  ] as const)('published=%s accessibility=%s enrolled=%s → %s', (is_published, accessibility, enrolled, visible) => {
    expect(isVisible({ is_published, accessibility }, enrolled)).toBe(visible);
  });
});

describe('stored times', () => {
  const forms = [
    '2026-03-01T10:00:00.000Z',
    '2026-03-01T10:00:00Z',
    '2026-03-01T13:00:00.000+03:00',
    '2026-03-01T10:00:00.5Z',
    '1999-12-31T23:59:59.999Z',
  ];

  it('come out as toISOString writes them, whatever form they were stored in', () => {
    for (const t of forms) expect(asIso(t), t).toBe(new Date(t).toISOString());
  });

  it('are shown in that form by lesson states and course summaries', () => {
    const [canonical, other] = ['2026-03-01T10:00:00.000Z', '2026-03-01T09:00:00+00:00'];
    const lesson = (started_at: string, completed_at: string | null): LessonRecord => ({
      started_at,
      completed_at,
    });
    expect(lessonInCycle(1, [lesson(canonical, null), lesson(other, other)], null)).toEqual({
      type: 'lesson',
      id: 1,
      status: 'completed',
      started_at: '2026-03-01T09:00:00.000Z',
      completed_at: '2026-03-01T09:00:00.000Z',
    });
    expect(lessonInCycle(1, [lesson(other, null), lesson(canonical, canonical)], Date.parse(canonical))).toMatchObject({
      started_at: canonical,
      completed_at: canonical,
    });
    const summary = summaryOf({
      course: rules({ has_deadline: true }),
      totals: { lessons: 1, tests: 0 },
      row: undefined,
      enrolledAt: other,
      now: NOW,
    });
    expect(summary).toMatchObject({ cycle_start: '2026-03-01T09:00:00.000Z', deadline: '2026-03-31T09:00:00.000Z' });
  });
});
