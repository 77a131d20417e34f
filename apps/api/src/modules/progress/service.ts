import type { Clock } from '../../platform/clock.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import { courseState, isVisible, type AttemptRecord, type CourseState, type LessonRecord } from './engine.js';
import { recordKey, type ProgressRepository } from './repository.js';

export const stateKey = (userId: number, courseId: number) => `${userId}:${courseId}`;

/**
 * The single place where progress, cycles and deadlines are decided, for many users and courses at
 * once: loads with a fixed number of queries, then applies the rules of engine.ts.
 */
export class LearningEngine {
  constructor(
    private readonly repo: ProgressRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly clock: Clock,
  ) {}

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
    if (userIds.length === 0) return out;
    const courses = await this.repo.courseRules(courseIds);
    if (courses.length === 0) return out;
    const ids = courses.map((c) => c.id);
    const [items, enrollments] = await Promise.all([
      this.repo.publishedItems(ids),
      this.enrollment.list({ userIds, courseIds: ids }),
    ]);
    const enrolledAt = new Map(enrollments.map((e) => [stateKey(e.user_id, e.course_id), e.enrolled_at]));
    const allLessons = [...items.values()].flatMap((i) => i.lessonIds);
    const allTests = [...items.values()].flatMap((i) => i.testIds);
    const records = await this.repo.records(userIds, allLessons, allTests);
    const now = this.clock.now();

    for (const userId of userIds) {
      for (const course of courses) {
        const key = stateKey(userId, course.id);
        const enrolled = enrolledAt.get(key) ?? null;
        if (opts.enrolledOnly && enrolled === null) continue;
        const courseItems = items.get(course.id) ?? { lessonIds: [], testIds: [] };
        const lessons = new Map<number, LessonRecord[]>();
        const attempts = new Map<number, AttemptRecord[]>();
        for (const id of courseItems.lessonIds) {
          const r = records.lessons.get(recordKey(userId, id));
          if (r) lessons.set(id, r);
        }
        for (const id of courseItems.testIds) {
          const r = records.attempts.get(recordKey(userId, id));
          if (r) attempts.set(id, r);
        }
        out.set(
          key,
          courseState({ course, items: courseItems, records: { lessons, attempts }, enrolledAt: enrolled, now }),
        );
      }
    }
    return out;
  }

  /** Courses the user may see as a learner (published; everyone, or enrolled_only and enrolled). */
  async visibleCourseIds(userId: number): Promise<number[]> {
    const [courses, enrollments] = await Promise.all([
      this.repo.courseRules(),
      this.enrollment.list({ userIds: [userId] }),
    ]);
    const enrolled = new Set(enrollments.map((e) => e.course_id));
    return courses.filter((c) => isVisible(c, enrolled.has(c.id))).map((c) => c.id);
  }
}
