import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { Clock } from '../../platform/clock.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import { courseState, isVisible, summaryOf, type CourseRules, type CourseSummary, type StoredState } from './engine.js';
import type { ProgressRepository } from './repository.js';
import type { KeptCourseList, ListedCategory, ListedCourse } from './courseList.js';
import { viewerLessonRecords, viewerStates, type ViewerCourseChoice, type ViewerLessonRecord } from './viewer.js';

/** A live course with the viewer's summary (undefined for a course the engine no longer knows). */
export interface ViewerCourse {
  course: ListedCourse;
  summary: CourseSummary | undefined;
}

/** All live courses, or only those the viewer may see as a learner, or one (viewer.ts). */
export type ViewerCoursesOptions = ViewerCourseChoice & { visibleOnly?: boolean };

export interface CourseTotals {
  learners: number;
  lessons: number;
  tests: number;
}

const key = (userId: number, courseId: number) => `${userId}:${courseId}`;
const NO_TOTALS: CourseTotals = { learners: 0, lessons: 0, tests: 0 };

/**
 * What lists of courses and people read of the maintained learning state (states.ts): the kept rows
 * and course totals turned into the engine's summaries by a few indexed reads. A row past its
 * `valid_until` (a new recurrence cycle opened, which the periodic pass has not rewritten yet) is
 * recomputed by the engine from the records for the answer at hand.
 */
export class LearningStateReads {
  constructor(
    private readonly uow: Pick<UnitOfWork, 'db'>,
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly courseList: KeptCourseList,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.uow.db;
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
   * The live courses (with `visibleOnly`, those the viewer may see as a learner; with `courseId` or
   * `courseOfTest`, that one) with the viewer's summary and the course's kept counts, in catalogue
   * order: the viewer's state rows and the list's version in one query (viewer.ts), the course half
   * kept while that version holds (courseList.ts). A row past its `valid_until` is recomputed by the
   * engine for this answer, as `summaries` does.
   */
  async viewerCourses(userId: number, opts: ViewerCoursesOptions = {}): Promise<ViewerCourse[]> {
    return (await this.viewerCourseList(userId, opts)).courses;
  }

  /** `viewerCourses` with the live categories of the same list (the catalogue shows empty ones too). */
  async viewerCourseList(
    userId: number,
    opts: ViewerCoursesOptions = {},
  ): Promise<{ courses: ViewerCourse[]; categories: readonly ListedCategory[] }> {
    const { listVersion, states, asked } = await viewerStates(this.db, userId, opts);
    const list = await this.courseList.at(listVersion);
    let courses: readonly ListedCourse[] = list.courses;
    if (opts.courseId !== undefined || opts.courseOfTest !== undefined) {
      const one = asked === undefined ? undefined : list.byId.get(asked);
      courses = one ? [one] : [];
    }
    if (opts.visibleOnly) courses = courses.filter((c) => isVisible(c, states.get(c.id)?.enrolled_at != null));
    return { courses: await this.summarise(userId, courses, states), categories: list.categories };
  }

  private async summarise(
    userId: number,
    courses: readonly ListedCourse[],
    states: ReadonlyMap<number, StoredState>,
  ): Promise<ViewerCourse[]> {
    const now = this.clock.now();
    const out = new Map<number, CourseSummary>();
    const stale: { user_id: number; course_id: number }[] = [];
    for (const course of courses) {
      const row = states.get(course.id);
      if (row?.valid_until && Date.parse(row.valid_until) <= now.getTime()) {
        stale.push({ user_id: userId, course_id: course.id });
        continue;
      }
      const totals = { lessons: course.lessons_total, tests: course.tests_total };
      out.set(course.id, summaryOf({ course, totals, row, enrolledAt: row?.enrolled_at ?? null, now }));
    }
    if (stale.length > 0) {
      const enrolledAt = new Map<string, string>();
      const recomputed = new Map<string, CourseSummary>();
      for (const [courseId, row] of states)
        if (row.enrolled_at !== null) enrolledAt.set(key(userId, courseId), row.enrolled_at);
      await this.recompute(stale, new Map(courses.map((c) => [c.id, c])), enrolledAt, now, recomputed);
      for (const p of stale) {
        const summary = recomputed.get(key(userId, p.course_id));
        if (summary) out.set(p.course_id, summary);
      }
    }
    return courses.map((course) => ({ course, summary: out.get(course.id) }));
  }

  /** The viewer's lesson records of published items of live courses, with their card (viewer.ts). */
  viewerLessonRecords(userId: number): Promise<ViewerLessonRecord[]> {
    return viewerLessonRecords(this.db, userId);
  }

  /**
   * The engine's summaries of the pairs from the records (rows past `valid_until`, which the periodic
   * pass has not rewritten yet), put into `out`.
   */
  async recompute(
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
