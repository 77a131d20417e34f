import type { Clock } from '../../platform/clock.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import {
  courseState,
  cycleRecordsFrom,
  isVisible,
  lessonInCycle,
  type CourseRules,
  type CourseState,
  type CourseSummary,
  type ItemState,
} from './engine.js';
import type { AttentionCount, AttentionCourse, AttentionGrouping, AttentionLead } from './attention.js';
import type { ProgressRepository } from './repository.js';
import type { DeadlineReads } from './deadlines.js';
import type { LearningStateReads, ViewerCoursesOptions } from './reads.js';
import type { LearningStates } from './states.js';
import type { UrgencyScope, UrgentCourse } from './urgency.js';
import type { ViewerLessonRecord } from './viewer.js';

/** A lesson started and not completed in the current cycle of its course, with its card's fields. */
export interface StartedLesson {
  lesson_id: number;
  course_id: number;
  started_at: string;
  name: string;
  module: string;
  section: string;
  image_path: string | null;
  course_image: string | null;
}

export const stateKey = (userId: number, courseId: number) => `${userId}:${courseId}`;

/**
 * The single place where progress, cycles and deadlines are decided, for many users and courses at
 * once: loads with a fixed number of queries, then applies the rules of engine.ts.
 */
export class LearningEngine {
  constructor(
    private readonly repo: ProgressRepository,
    private readonly courses: CoursesRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly clock: Clock,
    private readonly maintained: LearningStates,
    private readonly reads: LearningStateReads,
    private readonly deadlines: DeadlineReads,
  ) {}

  /**
   * Summaries (no per-item states) from the maintained rows: what lists of courses and people show.
   * Same figures as `states`, at the cost of a few indexed reads. Pass the `rules` already loaded.
   */
  summaries(
    userIds: readonly number[],
    courseIds: readonly number[] | undefined,
    opts: { enrolledOnly?: boolean; rules?: readonly CourseRules[] } = {},
  ): Promise<Map<string, CourseSummary>> {
    return this.reads.summaries(userIds, courseIds, opts);
  }

  /** Each in-scope user's most urgent enrolled course (the analytics overview), by user id. */
  mostUrgent(scope: UrgencyScope): Promise<Map<number, UrgentCourse>> {
    return this.deadlines.mostUrgent(scope);
  }

  /** The weekly digests' counts and most urgent courses per group of people (progress/attention.ts). */
  attention(
    grouping: AttentionGrouping,
    lines: number,
  ): Promise<{ at: Date; counts: AttentionCount[]; leads: AttentionLead[] }> {
    return this.deadlines.attention(grouping, lines);
  }

  /** The courses of these users that are overdue or almost overdue now (the lines a digest names). */
  attentionCourses(userIds: readonly number[], at: Date): Promise<AttentionCourse[]> {
    return this.deadlines.attentionCourses(userIds, at);
  }

  /** A learner's record in the course changed (lesson start/complete, attempt start/finish). */
  recordChanged(userId: number, courseId: number): Promise<void> {
    return this.maintained.refresh({ userIds: [userId], courseIds: [courseId] });
  }

  /** The course's published items or deadline/recurrence rules changed: every learner's row follows. */
  courseChanged(courseId: number): Promise<void> {
    return this.maintained.refresh({ courseIds: [courseId] });
  }

  /** Rows whose next recurrence cycle has opened, and kept rankings time overtook, are rewritten (the periodic pass). */
  renewExpired(limit?: number): Promise<number> {
    return this.maintained.renewExpired(limit);
  }

  /** Learner counts and published item totals per course, as kept with the rows. */
  totals(courseIds: readonly number[]) {
    return this.reads.totals(courseIds);
  }

  /**
   * States of the given users in the given courses. With `enrolledOnly`, only pairs where the user is
   * enrolled; otherwise every pair (a visible 'everyone' course has progress without enrollment).
   */
  async states(
    userIds: readonly number[],
    courseIds: readonly number[] | undefined,
    opts: { enrolledOnly?: boolean } = {},
  ): Promise<Map<string, CourseState>> {
    const out = new Map<string, CourseState>();
    if (userIds.length === 0 || courseIds?.length === 0) return out;
    const enrollments = await this.enrollment.list({ userIds, ...(courseIds ? { courseIds } : {}) });
    const wanted = opts.enrolledOnly ? [...new Set(enrollments.map((e) => e.course_id))] : courseIds;
    const courses = await this.courses.rules(wanted);
    if (courses.length === 0) return out;
    const [items, records] = await Promise.all([
      this.courses.publishedItems(courses.map((c) => c.id)),
      this.repo.records(userIds),
    ]);
    const now = this.clock.now();
    const byId = new Map(courses.map((c) => [c.id, c]));
    const none = { lessons: new Map(), attempts: new Map() };
    const state = (userId: number, courseId: number, enrolledAt: string | null) => {
      const course = byId.get(courseId);
      if (!course) return;
      out.set(
        stateKey(userId, courseId),
        courseState({
          course,
          items: items.get(courseId) ?? { lessonIds: [], testIds: [] },
          records: records.get(userId) ?? none,
          enrolledAt,
          now,
        }),
      );
    };
    if (opts.enrolledOnly) {
      for (const e of enrollments) state(e.user_id, e.course_id, e.enrolled_at);
      return out;
    }
    const enrolledAt = new Map(enrollments.map((e) => [stateKey(e.user_id, e.course_id), e.enrolled_at]));
    for (const userId of userIds) {
      for (const course of courses) state(userId, course.id, enrolledAt.get(stateKey(userId, course.id)) ?? null);
    }
    return out;
  }

  /** Courses the user may see as a learner (published; everyone, or enrolled_only and enrolled). */
  async visibleCourseIds(userId: number): Promise<number[]> {
    return (await this.visibleCourses(userId)).map((c) => c.id);
  }

  /** The rules of the courses the user may see as a learner. */
  async visibleCourses(userId: number): Promise<CourseRules[]> {
    const [courses, enrollments] = await Promise.all([
      this.courses.rules(),
      this.enrollment.list({ userIds: [userId] }),
    ]);
    const enrolled = new Set(enrollments.map((e) => e.course_id));
    return courses.filter((c) => isVisible(c, enrolled.has(c.id)));
  }

  /**
   * The live courses (with `visibleOnly`, those the viewer may see as a learner) with the viewer's
   * summary and the course's kept counts, in catalogue order (reads.ts: home, catalogue); with
   * `courseId` or `courseOfTest`, that one course (the test calls).
   */
  viewerCourses(userId: number, opts: ViewerCoursesOptions = {}) {
    return this.reads.viewerCourses(userId, opts);
  }

  /** `viewerCourses` of all live courses with the live categories (the catalogue). */
  viewerCourseList(userId: number) {
    return this.reads.viewerCourseList(userId);
  }

  /**
   * Lessons of visible courses that the user started and has not completed in the course's current
   * cycle, newest start first (the home slider, docs/product.md §Home), with what their cards show: one query
   * over the user's own lesson records; `lessonInCycle` decides from the stored cycle. Courses whose
   * row is past `valid_until` (a new cycle opened, not yet rewritten) go through the full engine.
   */
  async startedLessons(userId: number): Promise<StartedLesson[]> {
    const now = this.clock.now().getTime();
    const records = await this.reads.viewerLessonRecords(userId);
    const byLesson = new Map<number, ViewerLessonRecord[]>();
    const stale = new Set<number>();
    for (const r of records) {
      if (!isVisible(r, r.enrolled_at !== null)) continue;
      if (r.valid_until !== null && Date.parse(r.valid_until) <= now) stale.add(r.course_id);
      else {
        const list = byLesson.get(r.lesson_id);
        if (list) list.push(r);
        else byLesson.set(r.lesson_id, [r]);
      }
    }
    const out: StartedLesson[] = [];
    const started = (card: ViewerLessonRecord, item: ItemState) => {
      if (item.type !== 'lesson' || item.status !== 'in_progress' || item.started_at === null) return;
      const { name, module, image_path, course_id, section, course_image } = card;
      out.push({
        lesson_id: item.id,
        course_id,
        started_at: item.started_at,
        name,
        module,
        section,
        image_path,
        course_image,
      });
    };
    for (const [lessonId, list] of byLesson) {
      const [card] = list;
      if (!card) continue;
      started(
        card,
        lessonInCycle(lessonId, list, cycleRecordsFrom({ cycle: card.cycle ?? 1, cycle_start: card.cycle_start })),
      );
    }
    if (stale.size > 0) {
      const cards = new Map(records.map((r) => [r.lesson_id, r]));
      for (const state of (await this.states([userId], [...stale])).values())
        for (const item of state.items) {
          const card = cards.get(item.id);
          if (item.type === 'lesson' && card) started(card, item);
        }
    }
    return out.sort((a, b) => b.started_at.localeCompare(a.started_at) || b.lesson_id - a.lesson_id);
  }
}
