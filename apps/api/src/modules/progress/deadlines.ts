import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import {
  attentionCounts,
  attentionCourses,
  attentionLeads,
  type AttentionCount,
  type AttentionCourse,
  type AttentionGrouping,
  type AttentionLead,
} from './attention.js';
import { progressPercent, type CourseSummary } from './engine.js';
import type { LearningStateReads } from './reads.js';
import {
  STATUS_OF_RANK,
  keptUrgency,
  moreUrgent,
  urgentRows,
  type UrgencyScope,
  type UrgentCourse,
  type UrgentRow,
} from './urgency.js';

const key = (userId: number, courseId: number) => `${userId}:${courseId}`;

/**
 * Deadlines across people, read from the maintained learning state: each user's most urgent course
 * (the analytics overview, from the kept rankings of keptRankings.ts) and the weekly digests' figures
 * (attention.ts). Both judge "overdue" and "almost overdue" by the stored times at the moment of the
 * read, as `deadlineStatus` (engine.ts) does for one course.
 */
export class DeadlineReads {
  constructor(
    private readonly uow: Pick<UnitOfWork, 'db'>,
    private readonly courses: CoursesRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly reads: LearningStateReads,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.uow.db;
  }

  /**
   * Each user's most urgent enrolled course (docs/rules.md §Analytics), by user id, for the users in
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
    const [titles, totals] = await Promise.all([this.courses.titles([...named]), this.reads.totals([...named])]);
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
    await this.reads.recompute(
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
