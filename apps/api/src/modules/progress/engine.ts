import { DAY } from '../../platform/clock.js';

/**
 * The learning engine's rules (docs/rules.md §Visibility, §Progress, §Deadlines, §Recurrence), as pure
 * functions over loaded records. Every screen that shows progress or deadlines gets them from here.
 */

export type DeadlineStatus = 'overdue' | 'almost_overdue' | 'in_order';
export type ItemStatus = 'completed' | 'failed' | 'in_progress' | 'not_started';

export interface CourseRules {
  id: number;
  is_published: boolean;
  accessibility: 'everyone' | 'enrolled_only' | 'nobody';
  has_deadline: boolean;
  deadline_type: 'from_enrollment' | 'from_start';
  deadline_value: number;
  deadline_warning_days: number;
  has_recurrence: boolean;
  recurrence_value: number;
}

export interface LessonRecord {
  started_at: string | null;
  completed_at: string | null;
}
export interface AttemptRecord {
  started_at: string;
  finished_at: string | null;
  is_passed: boolean | null;
}

export interface CourseItems {
  lessonIds: readonly number[];
  testIds: readonly number[];
}

export interface LearnerRecords {
  lessons: ReadonlyMap<number, readonly LessonRecord[]>;
  attempts: ReadonlyMap<number, readonly AttemptRecord[]>;
}

export interface ItemState {
  type: 'lesson' | 'test';
  id: number;
  status: ItemStatus;
  started_at: string | null;
  completed_at: string | null;
}

/** A course state without its items: what the maintained rows give (progress/states.ts). */
export type CourseSummary = Omit<CourseState, 'items'>;

export interface CourseState {
  course_id: number;
  enrolled_at: string | null;
  visible: boolean;
  /** 1 for the first pass through the course; +1 for each re-certification cycle. */
  cycle: number;
  /** Start of the current cycle; null in the first cycle of a learner who is not enrolled. */
  cycle_start: string | null;
  started_at: string | null;
  completed_at: string | null;
  lessons: { total: number; completed: number };
  tests: { total: number; completed: number };
  items_total: number;
  items_completed: number;
  progress: number;
  complete: boolean;
  deadline: string | null;
  deadline_status: DeadlineStatus | null;
  items: ItemState[];
}

const ms = (iso: string) => new Date(iso).getTime();
const toIso = (t: number) => new Date(t).toISOString();
/** toISOString's own form, in which both databases hand back stored times. */
const ISO_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * A stored time as toISOString writes it: as it is when already in that form (parsing and
 * re-formatting every time of every card was a tenth of a home page's cost), else re-formatted.
 */
export const asIso = (t: string) => (ISO_FORM.test(t) ? t : toIso(ms(t)));

export function isVisible(course: Pick<CourseRules, 'is_published' | 'accessibility'>, enrolled: boolean): boolean {
  if (!course.is_published) return false;
  return course.accessibility === 'everyone' || (course.accessibility === 'enrolled_only' && enrolled);
}

export function progressPercent(done: number, total: number): number {
  return total > 0 ? Math.round((100 * done) / total) : 0;
}

export function deadlineStatus(
  deadline: number | null,
  warningDays: number,
  complete: boolean,
  now: number,
): DeadlineStatus | null {
  if (deadline === null) return null;
  if (complete) return 'in_order';
  if (now > deadline) return 'overdue';
  if (now >= deadline - warningDays * DAY) return 'almost_overdue';
  return 'in_order';
}

interface CycleView {
  items: ItemState[];
  done: number;
  lessonsDone: number;
  testsDone: number;
  /** When the last item got done (all done), else null. */
  completedAt: number | null;
  firstStart: number | null;
}

/** A lesson's state counting only its records since `from` (null = all history). */
export function lessonInCycle(id: number, records: readonly LessonRecord[], from: number | null): ItemState {
  const since = (t: string | null): t is string => t !== null && (from === null || ms(t) >= from);
  // The earliest of each, kept as stored: only the one shown is re-formatted.
  let completed: string | null = null;
  let start: string | null = null;
  const earlier = (t: string, than: string | null) => than === null || ms(t) < ms(than);
  for (const r of records) {
    if (since(r.completed_at) && earlier(r.completed_at, completed)) completed = r.completed_at;
    if (since(r.started_at) && earlier(r.started_at, start)) start = r.started_at;
  }
  const begin = start ?? completed;
  return {
    type: 'lesson',
    id,
    status: completed !== null ? 'completed' : start !== null ? 'in_progress' : 'not_started',
    started_at: begin !== null ? asIso(begin) : null,
    completed_at: completed !== null ? asIso(completed) : null,
  };
}

/**
 * Where the records of the current cycle begin for a stored state: a first cycle counts all history,
 * a later one the records since its start (what `courseState` passes to each item).
 */
export function cycleRecordsFrom(state: Pick<StoredState, 'cycle' | 'cycle_start'>): number | null {
  return state.cycle > 1 && state.cycle_start !== null ? ms(state.cycle_start) : null;
}

/** The state of every item counting only records since `from` (null = all history). */
function viewCycle(items: CourseItems, records: LearnerRecords, from: number | null): CycleView {
  const since = (t: string | null) => t !== null && (from === null || ms(t) >= from);
  const out: ItemState[] = [];
  let lessonsDone = 0;
  let testsDone = 0;
  let lastDone: number | null = null;
  let firstStart: number | null = null;
  const started = (t: number) => (firstStart = firstStart === null ? t : Math.min(firstStart, t));

  for (const id of items.lessonIds) {
    const lesson = lessonInCycle(id, records.lessons.get(id) ?? [], from);
    if (lesson.started_at !== null) started(ms(lesson.started_at));
    if (lesson.completed_at !== null) {
      lessonsDone++;
      lastDone = Math.max(lastDone ?? 0, ms(lesson.completed_at));
    }
    out.push(lesson);
  }

  for (const id of items.testIds) {
    let passed: number | null = null;
    let start: number | null = null;
    let finished = false;
    let open = false;
    for (const a of records.attempts.get(id) ?? []) {
      if (!since(a.started_at)) continue;
      start = Math.min(start ?? Infinity, ms(a.started_at));
      if (a.finished_at === null) open = true;
      else {
        finished = true;
        if (a.is_passed) passed = Math.min(passed ?? Infinity, ms(a.finished_at));
      }
    }
    if (start !== null) started(start);
    if (passed !== null) {
      testsDone++;
      lastDone = Math.max(lastDone ?? 0, passed);
    }
    out.push({
      type: 'test',
      id,
      status: passed !== null ? 'completed' : open ? 'in_progress' : finished ? 'failed' : 'not_started',
      started_at: start !== null ? toIso(start) : null,
      completed_at: passed !== null ? toIso(passed) : null,
    });
  }
  const total = items.lessonIds.length + items.testIds.length;
  const done = lessonsDone + testsDone;
  return {
    items: out,
    done,
    lessonsDone,
    testsDone,
    completedAt: total > 0 && done === total ? lastDone : null,
    firstStart,
  };
}

const MAX_CYCLES = 1000;

/** Progress, cycle and deadline of one learner in one course. */
export function courseState(input: {
  course: CourseRules;
  items: CourseItems;
  records: LearnerRecords;
  enrolledAt: string | null;
  now: Date;
}): CourseState {
  const { course, items, records, enrolledAt } = input;
  const now = input.now.getTime();
  let cycle = 1;
  let from: number | null = null;
  let view = viewCycle(items, records, from);
  // A new cycle begins recurrence_value days after the previous one was completed.
  while (course.has_recurrence && view.completedAt !== null && cycle < MAX_CYCLES) {
    const next = view.completedAt + course.recurrence_value * DAY;
    if (next > now) break;
    cycle++;
    from = next;
    view = viewCycle(items, records, from);
  }

  const cycleStart = from ?? (enrolledAt ? ms(enrolledAt) : null);
  let deadline: number | null = null;
  if (course.has_deadline) {
    const base = course.deadline_type === 'from_start' ? view.firstStart : cycleStart;
    if (base !== null) deadline = base + course.deadline_value * DAY;
  }
  const total = items.lessonIds.length + items.testIds.length;
  const complete = view.completedAt !== null;
  return {
    course_id: course.id,
    enrolled_at: enrolledAt,
    visible: isVisible(course, enrolledAt !== null),
    cycle,
    cycle_start: cycleStart !== null ? toIso(cycleStart) : null,
    started_at: view.firstStart !== null ? toIso(view.firstStart) : null,
    completed_at: view.completedAt !== null ? toIso(view.completedAt) : null,
    lessons: { total: items.lessonIds.length, completed: view.lessonsDone },
    tests: { total: items.testIds.length, completed: view.testsDone },
    items_total: total,
    items_completed: view.done,
    progress: progressPercent(view.done, total),
    complete,
    deadline: deadline !== null ? toIso(deadline) : null,
    deadline_status: deadlineStatus(deadline, course.deadline_warning_days, complete, now),
    items: view.items,
  };
}

/**
 * Until when a computed state holds: a completed course with recurrence opens its next cycle
 * `recurrence_value` days after completion; nothing else in a state moves with time alone (the
 * deadline status is derived when read). Null: until the next event.
 */
export function stateValidUntil(course: CourseRules, state: Pick<CourseState, 'completed_at'>): string | null {
  if (!course.has_recurrence || state.completed_at === null) return null;
  return toIso(ms(state.completed_at) + course.recurrence_value * DAY);
}

/**
 * When a deadline's warning window opens: `deadlineStatus` says almost overdue from then on (unless
 * complete or past the deadline). Stored with the row so that a read compares stored times with now.
 */
export function warningAt(course: Pick<CourseRules, 'deadline_warning_days'>, deadline: string | null): string | null {
  return deadline === null ? null : toIso(ms(deadline) - course.deadline_warning_days * DAY);
}

/** What a stored state row holds (everything of a summary that does not come from elsewhere). */
export interface StoredState {
  user_id: number;
  course_id: number;
  cycle: number;
  cycle_start: string | null;
  started_at: string | null;
  completed_at: string | null;
  lessons_completed: number;
  tests_completed: number;
  deadline: string | null;
  valid_until: string | null;
  /** The enrollment's time when the row was written; null for a pair kept only for its records. */
  enrolled_at: string | null;
  warning_at: string | null;
}

/** The summary a stored row stands for, at `now` (which must be before the row's `valid_until`). */
export function summaryOf(input: {
  course: CourseRules;
  totals: { lessons: number; tests: number };
  row: StoredState | undefined;
  enrolledAt: string | null;
  now: Date;
}): CourseSummary {
  const { course, totals, row, enrolledAt } = input;
  const lessonsDone = row?.lessons_completed ?? 0;
  const testsDone = row?.tests_completed ?? 0;
  const total = totals.lessons + totals.tests;
  const done = lessonsDone + testsDone;
  const complete = row?.completed_at != null;
  // Without a row the learner has no record: first cycle from enrollment, nothing started.
  const cycleStart = row ? row.cycle_start : enrolledAt;
  let deadline = row?.deadline ?? null;
  if (!row && course.has_deadline && course.deadline_type === 'from_enrollment' && cycleStart !== null) {
    deadline = toIso(ms(cycleStart) + course.deadline_value * DAY);
  }
  const at = (v: string | null) => (v === null ? null : asIso(v));
  return {
    course_id: course.id,
    enrolled_at: enrolledAt,
    visible: isVisible(course, enrolledAt !== null),
    cycle: row?.cycle ?? 1,
    cycle_start: at(cycleStart),
    started_at: at(row?.started_at ?? null),
    completed_at: at(row?.completed_at ?? null),
    lessons: { total: totals.lessons, completed: lessonsDone },
    tests: { total: totals.tests, completed: testsDone },
    items_total: total,
    items_completed: done,
    progress: progressPercent(done, total),
    complete,
    deadline: at(deadline),
    deadline_status: deadlineStatus(
      deadline !== null ? ms(deadline) : null,
      course.deadline_warning_days,
      complete,
      input.now.getTime(),
    ),
  };
}
