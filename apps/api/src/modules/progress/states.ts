import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { EnrollmentChange, EnrollmentRepository } from '../enrollment/repository.js';
import {
  courseState,
  stateValidUntil,
  warningAt,
  type CourseItems,
  type CourseRules,
  type StoredState,
} from './engine.js';
import type { KeptRankings } from './keptRankings.js';
import { holdCourses, holdPair } from './locks.js';
import { pairInputs } from './pairInputs.js';
import type { ProgressRepository } from './repository.js';
import { rankingChanged } from './urgency.js';

/**
 * Told, inside the transaction that wrote them, of the pairs whose row became complete (a first
 * completion, or one in a new cycle): the certificates module issues what they earn.
 */
export interface CompletionListener {
  completed(rows: readonly StoredState[]): Promise<void>;
}

/** Rows complete now that were not, in that cycle, before. */
function newlyCompleted(before: readonly StoredState[], after: readonly StoredState[]): StoredState[] {
  const was = new Map(before.map((r) => [key(r.user_id, r.course_id), r]));
  return after.filter((r) => {
    if (r.completed_at === null) return false;
    const old = was.get(key(r.user_id, r.course_id));
    return !old || old.completed_at === null || old.cycle !== r.cycle;
  });
}

export interface StateScope {
  userIds?: readonly number[];
  courseIds?: readonly number[];
}

const USERS_PER_PASS = 500;
const ROWS_PER_INSERT = 400;
const key = (userId: number, courseId: number) => `${userId}:${courseId}`;

/**
 * The maintained learning state (issue 14 item 2): `learning_states` holds, for every (user, course)
 * that is enrolled or has a record, what `engine.courseState` decides from the records, and
 * `course_stats` each course's learner count and published item totals. The services that change an
 * input call `refresh` (the enrollment service calls `enrollmentsChanged`) inside their unit of work,
 * so the rows are exact when the transaction commits; what moves with time alone is either derived
 * when read (almost overdue, overdue) or marked by `valid_until` (the next recurrence cycle), after
 * which a read recomputes the pair (reads.ts) and the periodic pass rewrites it. Pages read rows by
 * index instead of recomputing from raw records; each change that moves what a user's ranking reads
 * has their kept ranking written again (keptRankings.ts).
 */
export class LearningStates {
  constructor(
    private readonly uow: Pick<UnitOfWork, 'db'>,
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly rankings: KeptRankings,
    private readonly clock: Clock,
    private readonly completions?: CompletionListener,
  ) {}

  private async told(before: readonly StoredState[], after: readonly StoredState[]): Promise<void> {
    if (!this.completions) return;
    const rows = newlyCompleted(before, after);
    if (rows.length > 0) await this.completions.completed(rows);
  }

  private get db() {
    return this.uow.db;
  }

  /**
   * Makes the rows within the scope equal to the engine's recomputation from the records now. Whatever
   * refreshes the same rows at the same time waits or is waited for (locks.ts), so the refresh never
   * fails for it and never keeps a row made without its change.
   */
  async refresh(scope: StateScope): Promise<void> {
    const { userIds, courseIds } = scope;
    if (userIds?.length === 0 || courseIds?.length === 0) return;
    if (!courseIds) {
      // Seeders and tests: the courses in which the users have a row, an enrollment or a record, per
      // pass of users (each pass takes its own courses' locks: for writers that run alone).
      if (userIds && userIds.length > USERS_PER_PASS) {
        for (let i = 0; i < userIds.length; i += USERS_PER_PASS)
          await this.refresh({ userIds: userIds.slice(i, i + USERS_PER_PASS) });
        return;
      }
      return this.refresh({ ...scope, courseIds: await this.coursesOf(userIds) });
    }
    const [userId, courseId] = [onlyOne(userIds), onlyOne(courseIds)];
    if (userId !== undefined && courseId !== undefined) return this.refreshPair(userId, courseId);
    await holdCourses(this.db, courseIds);
    if (userIds && userIds.length > USERS_PER_PASS) {
      for (let i = 0; i < userIds.length; i += USERS_PER_PASS)
        await this.refresh({ ...scope, userIds: userIds.slice(i, i + USERS_PER_PASS) });
      return;
    }
    if (!userIds) {
      // A course-wide change: every enrolled learner and everyone with a record, in passes.
      const users = new Set<number>();
      for (const e of await this.enrollment.list({ courseIds })) users.add(e.user_id);
      for (const p of await this.progress.recordPairs({ courseIds })) users.add(p.user_id);
      // Whoever holds a row now: each pass below deletes its users' rows and writes what holds, and
      // whoever loses a row there has their most urgent course ranked again.
      for (const r of await this.db
        .selectFrom('learning_states')
        .select('user_id')
        .where('course_id', 'in', courseIds)
        .execute())
        users.add(r.user_id);
      if (users.size > 0) await this.refresh({ userIds: [...users], courseIds });
      await this.writeTotals(courseIds);
      return;
    }
    const [enrolled, withRecords] = await Promise.all([this.enrollment.list(scope), this.progress.recordPairs(scope)]);
    const enrolledAt = new Map(enrolled.map((e) => [key(e.user_id, e.course_id), e.enrolled_at]));
    const pairs = new Map<string, { user_id: number; course_id: number }>();
    for (const p of [...enrolled, ...withRecords]) pairs.set(key(p.user_id, p.course_id), p);
    const involved = [...new Set([...pairs.values()].map((p) => p.course_id))];
    const rules = await this.courses.rules(involved);
    const items = await this.courses.publishedItems(rules.map((r) => r.id));
    const records = await this.progress.records([...new Set([...pairs.values()].map((p) => p.user_id))], {
      lessonIds: [...items.values()].flatMap((i) => i.lessonIds),
      testIds: [...items.values()].flatMap((i) => i.testIds),
    });
    const rulesById = new Map(rules.map((r) => [r.id, r]));
    const now = this.clock.now();
    const none = { lessons: new Map(), attempts: new Map() };
    const rows: StoredState[] = [];
    for (const [k, p] of pairs) {
      const course = rulesById.get(p.course_id);
      // A deleted course keeps its last rows; nobody reads them (its rules are gone).
      if (!course) continue;
      rows.push(
        storedRow(
          p.user_id,
          course,
          items.get(course.id) ?? { lessonIds: [], testIds: [] },
          records.get(p.user_id) ?? none,
          enrolledAt.get(k) ?? null,
          now,
        ),
      );
    }
    const before = await this.deleteRows({ userIds, courseIds });
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
      await this.db
        .insertInto('learning_states')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    const moved = rankingChanged(before, rows);
    if (moved.length > 0) await this.rankings.changed(moved, now);
    await this.told(before, rows);
  }

  /** The courses in which the users (every user when none is named) have a row, an enrollment or a record. */
  private async coursesOf(userIds: readonly number[] | undefined): Promise<number[]> {
    const filter = userIds ? { userIds } : {};
    const [enrolled, withRecords] = await Promise.all([
      this.enrollment.list(filter),
      this.progress.recordPairs(filter),
    ]);
    const courses = new Set([...enrolled, ...withRecords].map((p) => p.course_id));
    let rows = this.db.selectFrom('learning_states').select('course_id').distinct();
    if (userIds) rows = rows.where('user_id', 'in', userIds);
    for (const r of await rows.execute()) courses.add(r.course_id);
    return [...courses];
  }

  /**
   * `refresh` of one pair, the scope of every learner event: the same row from the same inputs, read
   * by one statement (pairInputs.ts), and written only when it changes (a second start of a course's
   * test, a lesson opened again).
   */
  private async refreshPair(userId: number, courseId: number): Promise<void> {
    await holdPair(this.db, userId, courseId);
    const { course, enrolledAt, hasRecords, stored, items, records } = await pairInputs(this.db, userId, courseId);
    const row =
      course && (enrolledAt !== null || hasRecords)
        ? storedRow(userId, course, items, records, enrolledAt, this.clock.now())
        : undefined;
    if (row && stored && sameState(row, stored)) return;
    // The pair's locks keep the row as read until this transaction ends: were it changed meanwhile all
    // the same (a writer past the locks), the write below fails rather than keep a row made without it.
    if (row && !stored) await this.db.insertInto('learning_states').values(row).execute();
    else if (row) {
      const { user_id: _user, course_id: _course, ...values } = row;
      const updated = await this.db
        .updateTable('learning_states')
        .set(values)
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1)
        throw new Error(`learning state ${userId}:${courseId} changed meanwhile`);
    } else if (stored) await this.deleteRows({ userIds: [userId], courseIds: [courseId] });
    else return;
    const moved = rankingChanged(stored ? [stored] : [], row ? [row] : []);
    if (moved.length > 0) await this.rankings.changed(moved, this.clock.now());
    await this.told(stored ? [stored] : [], row ? [row] : []);
  }

  /** Deletes the rows within the scope (all rows of the users when no course is named) and returns them. */
  private async deleteRows(scope: StateScope): Promise<StoredState[]> {
    let q = this.db.deleteFrom('learning_states');
    if (scope.userIds) q = q.where('user_id', 'in', scope.userIds);
    if (scope.courseIds) q = q.where('course_id', 'in', scope.courseIds);
    return q.returningAll().execute();
  }

  /**
   * The enrollments changed (the enrollment service, in its transaction): the pairs' rows and the
   * courses' learner counts follow.
   */
  async enrollmentsChanged(change: EnrollmentChange): Promise<void> {
    if (change.pairs.length === 0) return;
    const userIds = [...new Set(change.pairs.map((p) => p.user_id))];
    const courseIds = [...new Set(change.pairs.map((p) => p.course_id))];
    await this.refresh({ userIds, courseIds });
    // In course order, as every writer of several courses' counts: two changes of the same courses
    // listed in opposite orders would otherwise each hold one row and wait for the other's.
    for (const [courseId, delta] of [...change.learnerDelta].sort(([a], [b]) => a - b)) {
      if (delta === 0) continue;
      await this.db
        .insertInto('course_stats')
        .values({ course_id: courseId, learners: delta, lessons_total: 0, tests_total: 0 })
        .onConflict((oc) =>
          oc.column('course_id').doUpdateSet((eb) => ({ learners: eb('course_stats.learners', '+', delta) })),
        )
        .execute();
    }
  }

  /** Writes each course's published item totals and its learner count (recounted). */
  private async writeTotals(courseIds: readonly number[]): Promise<void> {
    const [items, learners] = await Promise.all([
      this.courses.publishedItems(courseIds),
      this.enrollment.countByCourse(courseIds),
    ]);
    // In course order, as `enrollmentsChanged` writes the counts.
    for (const courseId of [...courseIds].sort((a, b) => a - b)) {
      const i = items.get(courseId) ?? { lessonIds: [], testIds: [] };
      const values = {
        learners: learners.get(courseId) ?? 0,
        lessons_total: i.lessonIds.length,
        tests_total: i.testIds.length,
      };
      await this.db
        .insertInto('course_stats')
        .values({ course_id: courseId, ...values })
        .onConflict((oc) => oc.column('course_id').doUpdateSet(values))
        .execute();
    }
  }

  /** Every row and course total from the records (after the migration that made the tables, seeding). */
  /** The course's pairs whose current cycle is complete (certificates issued when switched on). */
  completedRows(courseId: number): Promise<StoredState[]> {
    return this.db
      .selectFrom('learning_states')
      .selectAll()
      .where('course_id', '=', courseId)
      .where('completed_at', 'is not', null)
      .execute();
  }

  async rebuild(): Promise<void> {
    const courseIds = (await this.courses.rules()).map((c) => c.id);
    for (const id of courseIds) await this.refresh({ courseIds: [id] });
  }

  /**
   * Rewrites the rows whose next recurrence cycle has opened and the kept rankings that have expired;
   * returns how many (the periodic pass).
   */
  async renewExpired(limit = 2000): Promise<number> {
    const due = await this.db
      .selectFrom('learning_states')
      .select(['user_id', 'course_id'])
      .where('valid_until', '<=', iso(this.clock.now()))
      .orderBy('valid_until')
      .limit(limit)
      .execute();
    const byCourse = new Map<number, number[]>();
    for (const d of due) byCourse.set(d.course_id, [...(byCourse.get(d.course_id) ?? []), d.user_id]);
    // Every course's lock at once, in order: the refreshes below then take none anew.
    await holdCourses(this.db, [...byCourse.keys()]);
    for (const [courseId, userIds] of byCourse) await this.refresh({ userIds, courseIds: [courseId] });
    // Then the kept rankings that time has overtaken (a deadline passed, a warning window opened).
    const now = this.clock.now();
    const overtaken = await this.db
      .selectFrom('user_urgency')
      .select('user_id')
      .where('stable_until', '<=', iso(now))
      .orderBy('stable_until')
      .limit(limit)
      .execute();
    await this.rankings.changed(
      overtaken.map((u) => u.user_id),
      now,
    );
    return due.length + overtaken.length;
  }
}

const onlyOne = (ids: readonly number[] | undefined) => (ids?.length === 1 ? ids[0] : undefined);

const STATE_TIMES = [
  'cycle_start',
  'started_at',
  'completed_at',
  'deadline',
  'valid_until',
  'enrolled_at',
  'warning_at',
] as const satisfies readonly (keyof StoredState)[];

/** Whether two rows of a pair hold the same values (times as instants: each database writes its own form). */
function sameState(a: StoredState, b: StoredState): boolean {
  const time = (t: string | null) => (t === null ? null : Date.parse(t));
  return (
    a.cycle === b.cycle &&
    a.lessons_completed === b.lessons_completed &&
    a.tests_completed === b.tests_completed &&
    STATE_TIMES.every((c) => time(a[c]) === time(b[c]))
  );
}

function storedRow(
  userId: number,
  course: CourseRules,
  items: CourseItems,
  records: Parameters<typeof courseState>[0]['records'],
  enrolledAt: string | null,
  now: Date,
): StoredState {
  const s = courseState({ course, items, records, enrolledAt, now });
  return {
    user_id: userId,
    course_id: course.id,
    cycle: s.cycle,
    cycle_start: s.cycle_start,
    started_at: s.started_at,
    completed_at: s.completed_at,
    lessons_completed: s.lessons.completed,
    tests_completed: s.tests.completed,
    deadline: s.deadline,
    valid_until: stateValidUntil(course, s),
    enrolled_at: enrolledAt,
    warning_at: warningAt(course, s.deadline),
  };
}
