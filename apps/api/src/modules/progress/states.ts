import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, systemClock, type Clock } from '../../platform/clock.js';
import { CoursesRepository } from '../courses/repository.js';
import { EnrollmentRepository, type EnrollmentChange } from '../enrollment/repository.js';
import {
  courseState,
  isVisible,
  progressPercent,
  stateValidUntil,
  summaryOf,
  warningAt,
  type CourseItems,
  type CourseRules,
  type CourseSummary,
  type StoredState,
} from './engine.js';
import {
  attentionCounts,
  attentionCourses,
  attentionLeads,
  type AttentionCount,
  type AttentionCourse,
  type AttentionGrouping,
  type AttentionLead,
} from './attention.js';
import { holdCourses, holdPair } from './locks.js';
import { pairInputs } from './pairInputs.js';
import { ProgressRepository } from './repository.js';
import {
  viewerCourseRows,
  viewerLessonRecords,
  type ViewerCourseChoice,
  type ViewerCourseRow,
  type ViewerLessonRecord,
} from './viewer.js';
import {
  STATUS_OF_RANK,
  keptUrgency,
  moreUrgent,
  rankingChanged,
  urgencyEntries,
  urgentRows,
  type UrgencyScope,
  type UrgentCourse,
  type UrgentRow,
} from './urgency.js';

/** A live course with the viewer's summary (undefined for a course the engine no longer knows). */
export interface ViewerCourse {
  course: ViewerCourseRow;
  summary: CourseSummary | undefined;
}

export interface StateScope {
  userIds?: readonly number[];
  courseIds?: readonly number[];
}

export interface CourseTotals {
  learners: number;
  lessons: number;
  tests: number;
}

const USERS_PER_PASS = 500;
const ROWS_PER_INSERT = 400;
/** The mark in `counters` (migration 0012) that every kept ranking has been written. */
export const URGENCY_BUILT = 'user_urgency_built';
/** Users ranked per query when their kept ranking is rewritten. */
const URGENCY_USERS_PER_PASS = 2000;
const key = (userId: number, courseId: number) => `${userId}:${courseId}`;
const NO_TOTALS: CourseTotals = { learners: 0, lessons: 0, tests: 0 };

/**
 * The maintained learning state (issue 14 item 2): `learning_states` holds, for every (user, course)
 * that is enrolled or has a record, what `engine.courseState` decides from the records, and
 * `course_stats` each course's learner count and published item totals. The services that change an
 * input call `refresh` (or the enrollment repository reports its changes) inside their unit of work,
 * so the rows are exact when the transaction commits; what moves with time alone is either derived
 * when read (almost overdue, overdue) or marked by `valid_until` (the next recurrence cycle), after
 * which a read recomputes the pair and the periodic pass rewrites it. Pages read rows by index
 * instead of recomputing from raw records.
 */
export class LearningStates {
  constructor(
    private readonly uow: Pick<UnitOfWork, 'db'> & Partial<Pick<UnitOfWork, 'atEnd'>>,
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly clock: Clock,
  ) {}

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
    if (moved.length > 0) await this.urgencyChanged(moved, now);
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
    if (moved.length > 0) await this.urgencyChanged(moved, this.clock.now());
  }

  /**
   * The users' kept rankings are to be written again. Inside a unit of work they are written once, at
   * its end, for every user it touched, in id order: a transaction that refreshes several times (a
   * course-wide change in passes, the renewal of several courses) then locks its users' rows in one
   * order like every other, and two transactions cannot deadlock on them.
   */
  private async urgencyChanged(userIds: readonly number[], now: Date): Promise<void> {
    const pending = this.uow.atEnd?.(
      'user_urgency',
      () => new Set<number>(),
      (users) => this.writeUrgency([...users], this.clock.now()),
    );
    if (!pending) return this.writeUrgency(userIds, now);
    for (const id of userIds) pending.add(id);
  }

  /**
   * Ranks the users' enrolled courses again and keeps the choice in `user_urgency` (progress/urgency.ts),
   * in the caller's transaction: every change of a learning state goes through `refresh`, which ends here.
   * The users' rows are locked first (in id order, so that two writers cannot deadlock on them) and the
   * ranking read afterwards: on PostgreSQL a transaction that changed another course of the same user
   * has then committed, and its rows are in what this one ranks (each statement reads what has
   * committed before it), so the last writer never keeps a ranking made without the other's change.
   */
  private async writeUrgency(userIds: readonly number[], now: Date): Promise<void> {
    const ordered = [...new Set(userIds)].sort((a, b) => a - b);
    for (let i = 0; i < ordered.length; i += URGENCY_USERS_PER_PASS) {
      const part = ordered.slice(i, i + URGENCY_USERS_PER_PASS);
      await this.db
        .insertInto('user_urgency')
        .values(part.map((id) => ({ user_id: id, done: 0 })))
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ done: eb.ref('user_urgency.done') })))
        .execute();
      const entries = new Map((await urgencyEntries(this.db, part, iso(now))).map((e) => [e.user_id, e]));
      // A user without enrolled rows of a live course keeps an empty row: no course, for good.
      const rows = part.map(
        (id) =>
          entries.get(id) ?? {
            user_id: id,
            course_id: null,
            status: null,
            deadline: null,
            done: 0,
            stable_until: null,
          },
      );
      for (let j = 0; j < rows.length; j += ROWS_PER_INSERT)
        await this.db
          .insertInto('user_urgency')
          .values(rows.slice(j, j + ROWS_PER_INSERT))
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet((eb) => ({
              course_id: eb.ref('excluded.course_id'),
              status: eb.ref('excluded.status'),
              deadline: eb.ref('excluded.deadline'),
              done: eb.ref('excluded.done'),
              stable_until: eb.ref('excluded.stable_until'),
            })),
          )
          .execute();
    }
  }

  /**
   * Every user's kept ranking from the rows, then the mark that they are complete (migrate.ts runs
   * this at start-up until the mark is set, so an interrupted rebuild is done again).
   */
  async rebuildUrgency(): Promise<void> {
    await this.db.deleteFrom('user_urgency').execute();
    const users = await this.db.selectFrom('learning_states').select('user_id').distinct().execute();
    await this.writeUrgency(
      users.map((u) => u.user_id),
      this.clock.now(),
    );
    await this.db.updateTable('counters').set({ value: 1 }).where('name', '=', URGENCY_BUILT).execute();
  }

  /** Whether every user's kept ranking has been written since the table was made. */
  async urgencyBuilt(): Promise<boolean> {
    const mark = await this.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', URGENCY_BUILT)
      .executeTakeFirst();
    return mark === undefined || mark.value === 1;
  }

  /** Deletes the rows within the scope (all rows of the users when no course is named) and returns them. */
  private async deleteRows(scope: StateScope): Promise<StoredState[]> {
    let q = this.db.deleteFrom('learning_states');
    if (scope.userIds) q = q.where('user_id', 'in', scope.userIds);
    if (scope.courseIds) q = q.where('course_id', 'in', scope.courseIds);
    return q.returningAll().execute();
  }

  /** Learner counts follow the enrollment repository's changes, in its transaction. */
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
    await this.urgencyChanged(
      overtaken.map((u) => u.user_id),
      now,
    );
    return due.length + overtaken.length;
  }

  /** Per-course totals (learners, published lessons and tests); a course without a row has none. */
  async totals(courseIds: readonly number[]): Promise<Map<number, CourseTotals>> {
    const out = new Map<number, CourseTotals>();
    if (courseIds.length === 0) return out;
    const rows = await this.db.selectFrom('course_stats').selectAll().where('course_id', 'in', courseIds).execute();
    for (const r of rows)
      out.set(r.course_id, { learners: r.learners, lessons: r.lessons_total, tests: r.tests_total });
    return out;
  }

  /**
   * Summaries of the given users in the given courses from the rows (a few indexed reads). With
   * `enrolledOnly`, the enrolled pairs; otherwise every pair (a visible 'everyone' course has a state
   * without enrollment). Rows past `valid_until` are recomputed by the engine for this answer.
   */
  async summaries(
    userIds: readonly number[],
    courseIds: readonly number[] | undefined,
    opts: { enrolledOnly?: boolean; rules?: readonly CourseRules[] } = {},
  ): Promise<Map<string, CourseSummary>> {
    const out = new Map<string, CourseSummary>();
    if (userIds.length === 0 || courseIds?.length === 0) return out;
    const enrollments = await this.enrollment.list({ userIds, ...(courseIds ? { courseIds } : {}) });
    const wanted = opts.enrolledOnly ? [...new Set(enrollments.map((e) => e.course_id))] : courseIds;
    const given = opts.rules && wanted ? new Set(wanted) : undefined;
    const rules = given ? (opts.rules ?? []).filter((r) => given.has(r.id)) : await this.courses.rules(wanted);
    if (rules.length === 0) return out;
    const ids = rules.map((r) => r.id);
    const [rows, totals] = await Promise.all([this.rows(userIds, ids), this.totals(ids)]);
    const now = this.clock.now();
    const stale: { user_id: number; course_id: number }[] = [];
    const byId = new Map(rules.map((c) => [c.id, c]));
    const summary = (userId: number, courseId: number, enrolledAt: string | null) => {
      const course = byId.get(courseId);
      if (!course) return;
      const row = rows.get(key(userId, courseId));
      if (row?.valid_until && Date.parse(row.valid_until) <= now.getTime()) {
        stale.push({ user_id: userId, course_id: courseId });
        return;
      }
      out.set(
        key(userId, courseId),
        summaryOf({ course, totals: totals.get(courseId) ?? NO_TOTALS, row, enrolledAt, now }),
      );
    };
    const enrolledAt = new Map(enrollments.map((e) => [key(e.user_id, e.course_id), e.enrolled_at]));
    if (opts.enrolledOnly) for (const e of enrollments) summary(e.user_id, e.course_id, e.enrolled_at);
    else for (const u of userIds) for (const c of rules) summary(u, c.id, enrolledAt.get(key(u, c.id)) ?? null);
    if (stale.length > 0) await this.recompute(stale, byId, enrolledAt, now, out);
    return out;
  }

  /**
   * The live courses (with `visibleOnly`, those the viewer may see as a learner) with the viewer's
   * summary and the course's kept counts, in catalogue order (viewer.ts); a row past its
   * `valid_until` is recomputed by the engine for this answer, as `summaries` does.
   */
  async viewerCourses(userId: number, opts: ViewerCourseChoice = {}): Promise<ViewerCourse[]> {
    let rows = await viewerCourseRows(this.db, userId, opts);
    if (opts.visibleOnly) rows = rows.filter((r) => isVisible(r, r.enrolled_at !== null));
    return this.summarise(userId, rows);
  }

  private async summarise(userId: number, rows: readonly ViewerCourseRow[]): Promise<ViewerCourse[]> {
    const now = this.clock.now();
    const out = new Map<string, CourseSummary>();
    const stale: { user_id: number; course_id: number }[] = [];
    for (const r of rows) {
      if (r.state?.valid_until && Date.parse(r.state.valid_until) <= now.getTime()) {
        stale.push({ user_id: userId, course_id: r.id });
        continue;
      }
      const totals = { lessons: r.lessons_total, tests: r.tests_total };
      out.set(key(userId, r.id), summaryOf({ course: r, totals, row: r.state, enrolledAt: r.enrolled_at, now }));
    }
    if (stale.length > 0) {
      const enrolledAt = new Map<string, string>();
      for (const r of rows) if (r.enrolled_at !== null) enrolledAt.set(key(userId, r.id), r.enrolled_at);
      await this.recompute(stale, new Map(rows.map((r) => [r.id, r])), enrolledAt, now, out);
    }
    return rows.map((course) => ({ course, summary: out.get(key(userId, course.id)) }));
  }

  /** The viewer's lesson records of published items of live courses, with their card (viewer.ts). */
  viewerLessonRecords(userId: number): Promise<ViewerLessonRecord[]> {
    return viewerLessonRecords(this.db, userId);
  }

  private async recompute(
    pairs: readonly { user_id: number; course_id: number }[],
    rules: ReadonlyMap<number, CourseRules>,
    enrolledAt: ReadonlyMap<string, string>,
    now: Date,
    out: Map<string, CourseSummary>,
  ): Promise<void> {
    const courseIds = [...new Set(pairs.map((p) => p.course_id))];
    const items = await this.courses.publishedItems(courseIds);
    const records = await this.progress.records([...new Set(pairs.map((p) => p.user_id))], {
      lessonIds: [...items.values()].flatMap((i) => i.lessonIds),
      testIds: [...items.values()].flatMap((i) => i.testIds),
    });
    const none = { lessons: new Map(), attempts: new Map() };
    for (const p of pairs) {
      const course = rules.get(p.course_id);
      if (!course) continue;
      const { items: _items, ...summary } = courseState({
        course,
        items: items.get(p.course_id) ?? { lessonIds: [], testIds: [] },
        records: records.get(p.user_id) ?? none,
        enrolledAt: enrolledAt.get(key(p.user_id, p.course_id)) ?? null,
        now,
      });
      out.set(key(p.user_id, p.course_id), summary);
    }
  }

  /**
   * Each user's most urgent enrolled course (DESIGN.md §6 "Analytics"), by user id, for the users in
   * scope that have one: the figures of `summaries(…, { enrolledOnly: true })` ranked by `moreUrgent`,
   * computed by one indexed query over the rows. Rows past `valid_until` (their next cycle opened and
   * the periodic pass has not rewritten them yet) are recomputed by the engine for this answer, as
   * `summaries` does, and compete with the query's choice.
   */
  async mostUrgent(scope: UrgencyScope): Promise<Map<number, UrgentCourse>> {
    const now = this.clock.now();
    const out = new Map<number, UrgentCourse>();
    const overtaken: number[] = [];
    const kept = await keptUrgency(this.db, scope, iso(now));
    // The courses the rows name (at most the catalogue), from their owners: live titles and totals.
    const named = new Set<number>();
    for (const r of kept) if (r.course_id !== null) named.add(r.course_id);
    const [titles, totals] = await Promise.all([this.courses.titles([...named]), this.totals([...named])]);
    const titleOf = new Map(titles.map((c) => [c.id, c.title]));
    for (const r of kept) {
      if (r.course_id === null) {
        if (r.fresh !== 1) overtaken.push(r.user_id);
        continue;
      }
      const title = titleOf.get(r.course_id);
      // A deleted course's row no longer holds.
      if (r.fresh !== 1 || title === undefined) {
        overtaken.push(r.user_id);
        continue;
      }
      const total = totals.get(r.course_id);
      out.set(r.user_id, {
        course_id: r.course_id,
        title,
        deadline: r.deadline,
        status: r.status === null ? null : (STATUS_OF_RANK[r.status] ?? null),
        progress: progressPercent(r.done, total ? total.lessons + total.tests : 0),
      });
    }
    if (overtaken.length > 0)
      for (const [userId, c] of await this.ranked({ userIds: overtaken }, now)) out.set(userId, c);
    return out;
  }

  /** `mostUrgent` ranked from the learning states themselves (for the users whose kept row has expired). */
  private async ranked(scope: UrgencyScope, now: Date): Promise<Map<number, UrgentCourse>> {
    const out = new Map<number, UrgentCourse>();
    const [rows, stale] = await Promise.all([urgentRows(this.db, scope, iso(now)), this.staleEnrolled(scope, now)]);
    for (const r of rows) out.set(r.user_id, urgentCourseOf(r));
    if (stale.length === 0) return out;
    const courseIds = [...new Set(stale.map((p) => p.course_id))];
    const [rules, enrollments, titles] = await Promise.all([
      this.courses.rules(courseIds),
      this.enrollment.list({ userIds: [...new Set(stale.map((p) => p.user_id))], courseIds }),
      this.courses.titles(courseIds),
    ]);
    const enrolledAt = new Map(enrollments.map((e) => [key(e.user_id, e.course_id), e.enrolled_at]));
    const fresh = new Map<string, CourseSummary>();
    await this.recompute(
      stale.filter((p) => enrolledAt.has(key(p.user_id, p.course_id))),
      new Map(rules.map((c) => [c.id, c])),
      enrolledAt,
      now,
      fresh,
    );
    const title = new Map(titles.map((c) => [c.id, c.title]));
    for (const [k, s] of fresh) {
      const userId = Number(k.split(':')[0]);
      const candidate: UrgentCourse = {
        course_id: s.course_id,
        title: title.get(s.course_id) ?? '',
        deadline: s.deadline,
        status: s.deadline_status,
        progress: s.progress,
      };
      const held = out.get(userId);
      if (!held || moreUrgent(candidate, held) < 0) out.set(userId, candidate);
    }
    return out;
  }

  /**
   * The weekly digests' figures now (progress/attention.ts): per group of people and status, how many
   * courses of how many people, and what may be among the group's `lines` most urgent. Read from the
   * stored times, set-based: a mass change costs one row per person at most, not one per enrollment.
   * Rows past `valid_until` are not read: the reminder pass renews them before its digests.
   */
  async attention(
    grouping: AttentionGrouping,
    lines: number,
  ): Promise<{ at: Date; counts: AttentionCount[]; leads: AttentionLead[] }> {
    const at = this.clock.now();
    const [counts, leads] = await Promise.all([
      attentionCounts(this.db, iso(at), grouping),
      attentionLeads(this.db, iso(at), grouping, lines),
    ]);
    return { at, counts, leads };
  }

  /**
   * The courses of these users that are overdue or almost overdue at `at` (the lines a digest names:
   * the moment its counts were taken, so that both judge the same deadlines).
   */
  attentionCourses(userIds: readonly number[], at: Date): Promise<AttentionCourse[]> {
    return attentionCourses(this.db, iso(at), userIds);
  }

  /** Enrolled pairs in scope whose row is past its `valid_until` (few: the periodic pass renews them). */
  private async staleEnrolled(scope: UrgencyScope, now: Date): Promise<{ user_id: number; course_id: number }[]> {
    const due = () =>
      this.db
        .selectFrom('learning_states')
        .select(['user_id', 'course_id'])
        .where('valid_until', '<=', iso(now))
        .where('enrolled_at', 'is not', null);
    if (scope === 'everyone') return due().execute();
    const out: { user_id: number; course_id: number }[] = [];
    for (let i = 0; i < scope.userIds.length; i += 2000)
      for (const row of await due()
        .where('user_id', 'in', scope.userIds.slice(i, i + 2000))
        .execute())
        out.push(row);
    return out;
  }

  /** The stored rows of the users in the courses, by pair. */
  async rows(userIds: readonly number[], courseIds?: readonly number[]): Promise<Map<string, StoredState>> {
    const out = new Map<string, StoredState>();
    for (let i = 0; i < userIds.length; i += 2000) {
      let q = this.db
        .selectFrom('learning_states')
        .selectAll()
        .where('user_id', 'in', userIds.slice(i, i + 2000));
      if (courseIds) q = q.where('course_id', 'in', courseIds);
      for (const r of await q.execute()) out.set(key(r.user_id, r.course_id), r);
    }
    return out;
  }
}

function urgentCourseOf(r: UrgentRow): UrgentCourse {
  return {
    course_id: r.course_id,
    title: r.title,
    deadline: r.deadline,
    status: r.status === null ? null : (STATUS_OF_RANK[r.status] ?? null),
    progress: progressPercent(r.done, r.total ?? 0),
  };
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

/**
 * The learning state over an executor outside the app (migrations, seeders, tests that write rows
 * directly): an enrollment repository whose changes keep the rows, and the keeper itself.
 */
export function learningStatesOver(executor: Pick<UnitOfWork, 'db'>, clock: Clock = systemClock) {
  const enrollment = new EnrollmentRepository(executor);
  const courses = new CoursesRepository(executor);
  const states = new LearningStates(executor, courses, new ProgressRepository(executor), enrollment, clock);
  enrollment.onChange((change) => states.enrollmentsChanged(change));
  return { enrollment, states };
}
