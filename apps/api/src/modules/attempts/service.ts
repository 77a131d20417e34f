import { questionStatistics } from './statistics.js';
import { askedQuestions, grade, rebuiltSnapshot, snapshotOf } from './snapshot.js';
import { randomInt } from 'node:crypto';
import {
  ATTEMPT_MESSAGES as A,
  type AttemptQuestion,
  type AttemptView,
  type ItemRef,
  type LearnerTest,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { can } from '../../platform/access.js';
import { SECOND, iso, type Clock } from '../../platform/clock.js';
import { HttpError, notFound, unprocessable } from '../../platform/errors.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { Askable, TestRow, TestsRepository } from '../courses/tests.js';
import type { LearningService } from '../learning/service.js';
import type { CourseSummary as StateSummary } from '../progress/engine.js';
import type { AttemptRow, AttemptSnapshot, AttemptsRepository, HeldAttempt, SavedAnswer } from './repository.js';

/** Answers are accepted this long after expiry, for the network (docs/rules.md §Timer). */
export const GRACE_MS = 5 * SECOND;

/** A refused start; `blockedUntil` null means blocked for ever, undefined not blocked. */
export class StartRefused extends HttpError {
  constructor(
    message: string,
    readonly blockedUntil?: string | null,
  ) {
    super(422, message);
  }
}

const ms = (t: string) => new Date(t).getTime();
const seconds = (from: string, to: string) => Math.max(0, Math.floor((ms(to) - ms(from)) / 1000));

/**
 * Awaits the reads together and answers them in the given order: a failure of an earlier one wins
 * whatever finished first, as if they had run one after another.
 */
async function allInOrder<T extends readonly unknown[]>(...reads: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(reads);
  return settled.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  }) as unknown as T;
}

/** An open attempt whose time and grace have run out (answers are refused; it is to be finished). */
const ranOut = (a: AttemptRow, now: number) =>
  a.finished_at === null && a.expires_at !== null && now > ms(a.expires_at) + GRACE_MS;

function shuffle<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * The test engine (docs/rules.md §Tests, §Attempt snapshot, §Timer): starts, answers and finishes
 * are decided by the server's clock and guarded by the database, so no race, reload or device clock
 * changes a grade; correct options never leave the server before an attempt is finished.
 */
export class AttemptsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly attempts: AttemptsRepository,
    private readonly tests: TestsRepository,
    private readonly learning: LearningService,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return iso(this.clock.now());
  }

  /**
   * A published test of a course the user sees (staff preview unpublished ones) and the user's
   * summary of the course (visibility and cycle, from the maintained row). Both are read at once; the
   * test is judged first, so a missing test answers as such whatever the course.
   */
  private async seenTest(user: SessionUser, testId: number, courseId?: number) {
    const [found, seen] = await Promise.allSettled([
      this.tests.find(testId, courseId),
      this.learning.seenSummary(user, courseId !== undefined ? { courseId } : { courseOfTest: testId }),
    ]);
    if (found.status === 'rejected') throw found.reason;
    const test = found.value;
    if (!test) throw notFound(A.notFound);
    if (seen.status === 'rejected') throw seen.reason;
    // The published outline holds a live test exactly when it is published.
    if (!test.is_published && !can(user.role, 'constructor.manage')) throw notFound(A.notFound);
    return { test, seen: seen.value };
  }

  /** The items before and after the test in the course's published outline (none for a preview). */
  private async place(courseId: number, testId: number): Promise<{ previous: ItemRef | null; next: ItemRef | null }> {
    const order = (await this.learning.outline(courseId)).flatMap((m) => m.items);
    const at = order.findIndex((i) => i.type === 'test' && i.id === testId);
    const ref = (i: (typeof order)[number] | undefined): ItemRef | null => (i ? { type: i.type, id: i.id } : null);
    return at >= 0 ? { previous: ref(order[at - 1]), next: ref(order[at + 1]) } : { previous: null, next: null };
  }

  /** Start of the user's current recurrence cycle of the course (null: the first cycle). */
  private cycleStart(seen: StateSummary): string | null {
    return seen.cycle > 1 ? seen.cycle_start : null;
  }

  /** Finishes the user's open attempts whose time and grace ran out, as of their expiry. */
  private async closeExpired(list: AttemptRow[]): Promise<AttemptRow[]> {
    const now = this.clock.now().getTime();
    const out: AttemptRow[] = [];
    for (const a of list) {
      if (ranOut(a, now) && a.expires_at !== null) {
        const held = await this.attempts.holdForFinish(a.id);
        out.push(held?.finished_at === null ? await this.finishRow(held, a.expires_at) : (held ?? a));
      } else out.push(a);
    }
    return out;
  }

  /**
   * Grades an attempt the unit holds (`holdForFinish`) with the answers saved until now. The row
   * returned carries what it asked (rebuilt for an attempt kept without a snapshot).
   */
  private async finishRow(a: HeldAttempt, at: string): Promise<AttemptRow & { snapshot: AttemptSnapshot }> {
    const answers = await this.attempts.answers(a.id);
    const asked = await this.asked(a, answers);
    const done = await this.attempts.finish(
      { ...a, snapshot: asked },
      { finished_at: at, ...grade(asked, answers) },
      this.now(),
    );
    if (!done) throw new Error(`attempt ${a.id} was finished by another while held`);
    await this.learning.recorded(a.user_id, a.course_id);
    return { ...done, snapshot: asked };
  }

  /**
   * What the attempt asked: its snapshot, or for one written before snapshots were kept, the snapshot
   * rebuilt from what it stored (`rebuiltSnapshot`); `answers` are its saved ones, when read already.
   */
  private async asked(
    a: Pick<AttemptRow, 'id' | 'test_id' | 'snapshot'>,
    answers?: readonly SavedAnswer[],
  ): Promise<AttemptSnapshot> {
    if (a.snapshot) return a.snapshot;
    const order = (await this.attempts.storedOrders([a.id])).get(a.id) ?? { question_order: [], answer_order: {} };
    return rebuiltSnapshot(order, answers ?? (await this.attempts.answers(a.id)), await this.tests.content(a.test_id));
  }

  /** Whether a new attempt may start now: the attempt limit of the cycle, then the retake interval. */
  private blocked(test: TestRow, attempts: AttemptRow[], since: string | null): { until: string | null } | null {
    const inCycle = attempts.filter((a) => since === null || a.started_at >= since);
    if (test.has_attempts_limit && inCycle.length >= test.max_attempts) return { until: null };
    if (test.has_retake_interval) {
      const last = attempts.filter((a) => a.finished_at !== null).at(-1);
      if (last?.finished_at) {
        const until = ms(last.finished_at) + test.retake_interval_seconds * SECOND;
        if (until > this.clock.now().getTime()) return { until: iso(new Date(until)) };
      }
    }
    return null;
  }

  /**
   * An attempt as the learner's pages read it; `passMark` stands in for the pass mark of an attempt
   * kept without a snapshot (the test's own).
   */
  private view(a: AttemptRow, passMark: number): AttemptView {
    const end = a.finished_at ?? this.now();
    return {
      id: a.id,
      attempt_number: a.attempt_number,
      started_at: a.started_at,
      finished_at: a.finished_at,
      elapsed_seconds: seconds(a.started_at, end),
      duration_seconds: a.finished_at ? seconds(a.started_at, a.finished_at) : null,
      score: a.score,
      correct_answers: a.correct_answers,
      is_passed: a.is_passed,
      expires_at: a.expires_at,
      passing_score: a.snapshot?.passing_score ?? passMark,
    };
  }

  private async questionsCount(test: TestRow): Promise<number> {
    const total = (await this.tests.questions(test.id)).length;
    return test.has_question_bank ? Math.min(test.question_bank_size, total) : total;
  }

  /** GET /api/courses/{courseId}/tests/{testId} for the one taking it (docs/product.md §Test taking). */
  async testView(
    user: SessionUser,
    courseId: number,
    testId: number,
  ): Promise<{ test: LearnerTest; previous_item: ItemRef | null; next_item: ItemRef | null; server_time: string }> {
    const [{ test, seen }, { previous, next }] = await allInOrder(
      this.seenTest(user, testId, courseId),
      this.place(courseId, testId),
    );
    const attempts = await this.currentAttempts(user.id, testId);
    const open = attempts.filter((a) => a.finished_at === null);
    const finished = attempts.filter((a) => a.finished_at !== null);
    const since = this.cycleStart(seen);
    const block = open.length > 0 ? null : this.blocked(test, attempts, since);
    // The test counts as passed from the first pass of the cycle on (as the course page says).
    const passed = finished.find((a) => a.is_passed === true && (since === null || a.started_at >= since));
    const view = (a: AttemptRow) => this.view(a, test.passing_score);
    const current = open[0];
    let taking: { questions: AttemptQuestion[]; count: number } | undefined;
    if (current) {
      const answers = await this.attempts.answers(current.id);
      const asked = await this.asked(current, answers);
      taking = { questions: askedQuestions(asked, answers, false), count: asked.questions.length };
    }
    return {
      test: {
        id: test.id,
        name: test.name,
        questions: taking?.questions ?? [],
        questions_count: taking?.count ?? (await this.questionsCount(test)),
        timer_seconds: test.timer_seconds,
        has_timer: test.has_timer,
        passing_score: test.passing_score,
        retake_interval_seconds: test.has_retake_interval ? test.retake_interval_seconds : 0,
        max_attempts: test.max_attempts,
        has_attempts_limit: test.has_attempts_limit,
        is_blocked: block !== null,
        ...(block ? { blocked_until: block.until } : {}),
        last_attempt: finished.length > 0 ? view(finished[finished.length - 1] as AttemptRow) : null,
        attempts: finished.map(view),
        active_attempts: open.map(view),
        passed_attempt: passed ? view(passed) : null,
      },
      previous_item: previous,
      next_item: next,
      server_time: this.now(),
    };
  }

  /** The user's attempts at the test, those that ran out finished first (in a unit only then). */
  private async currentAttempts(userId: number, testId: number): Promise<AttemptRow[]> {
    const now = this.clock.now().getTime();
    const list = await this.attempts.ofUser(userId, testId);
    if (!list.some((a) => ranOut(a, now))) return list;
    return this.uow.run(async () => this.closeExpired(await this.attempts.ofUser(userId, testId)));
  }

  /** Per-question figures of a test for its authors (issue 16), over every finished attempt. */
  async statistics(testId: number) {
    if (!(await this.tests.find(testId))) throw notFound(A.notFound);
    return questionStatistics(testId, this.attempts, this.tests);
  }

  /** Continues the open attempt, or draws a new one; 422 (with `blocked_until`) when it may not start. */
  async start(user: SessionUser, testId: number): Promise<{ id: number; message: string }> {
    // The user's attempts are read alongside the test, outside the transaction: an open one is
    // continued without one, and a new attempt's number and open marker are unique in the database,
    // so a parallel start that read the same list fails its insert and reads again below.
    const [{ test, seen }, known] = await allInOrder(
      this.seenTest(user, testId),
      this.attempts.ofUser(user.id, testId),
    );
    const now = this.clock.now().getTime();
    const open = known.find((a) => a.finished_at === null && !ranOut(a, now));
    if (open) return { id: open.id, message: A.continued };
    // The questions as they are at the version read with the test: a start draws from them as they
    // were at that moment (kept by the process while the version holds).
    const askable = await this.tests.askable(testId, test.content_version);
    const since = this.cycleStart(seen);
    try {
      return await this.uow.run(() => this.startInUnit(user, test, since, askable, known));
    } catch (error) {
      // A parallel start won the race for the one open attempt: continue it.
      const code = (error as { code?: unknown }).code;
      if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE')
        return this.uow.run(() => this.startInUnit(user, test, since, askable));
      throw error;
    }
  }

  /** A new attempt, or the open one; `known` is the user's attempts as read before the unit. */
  private async startInUnit(
    user: SessionUser,
    test: TestRow,
    since: string | null,
    askable: Askable,
    known?: AttemptRow[],
  ): Promise<{ id: number; message: string }> {
    const attempts = await this.closeExpired(known ?? (await this.attempts.ofUser(user.id, test.id)));
    const open = attempts.find((a) => a.finished_at === null);
    if (open) return { id: open.id, message: A.continued };
    const block = this.blocked(test, attempts, since);
    if (block) throw new StartRefused(block.until === null ? A.blockedForever : A.blockedUntil, block.until);
    const { questions: usable, options } = askable;
    if (usable.length === 0) throw new StartRefused(A.empty);
    // A bank larger than the list draws every question (docs/rules.md §Tests).
    let drawn = test.has_question_bank
      ? shuffle(usable)
          .slice(0, Math.max(1, test.question_bank_size))
          .sort((a, b) => a.sort_order - b.sort_order || a.id - b.id)
      : usable;
    if (test.randomize_questions && !test.has_question_bank) drawn = shuffle(drawn);
    const snapshot = snapshotOf(test.passing_score, drawn, options, test.randomize_answers ? shuffle : undefined);
    const now = this.clock.now();
    const id = await this.attempts.insert(
      {
        user_id: user.id,
        test_id: test.id,
        attempt_number: (attempts.at(-1)?.attempt_number ?? 0) + 1,
        started_at: iso(now),
        expires_at: test.has_timer ? iso(new Date(now.getTime() + test.timer_seconds * SECOND)) : null,
        snapshot,
      },
      iso(now),
    );
    await this.learning.recorded(user.id, test.course_id);
    return { id, message: A.started };
  }

  /** The user's own attempt (an admin may read anyone's result, never answer for them). */
  private async own(user: SessionUser, attemptId: number, allowAdmin = false): Promise<AttemptRow> {
    return this.owned(user, await this.attempts.find(attemptId), allowAdmin);
  }

  private owned<T extends AttemptRow>(user: SessionUser, a: T | undefined, allowAdmin = false): T {
    if (!a || (a.user_id !== user.id && !(allowAdmin && can(user.role, 'settings.manage')))) {
      throw notFound(A.attemptNotFound);
    }
    return a;
  }

  /**
   * One final answer per question; the same answer again is accepted, a different one refused. Each
   * answer is written by one statement that requires the attempt to be open (AttemptsRepository
   * `saveAnswer`), so a single answer needs no transaction; several are written in one, all or none.
   */
  async saveAnswers(
    user: SessionUser,
    attemptId: number,
    answers: { test_question_id: number; answer: number[] }[],
  ): Promise<void> {
    const a = await this.attempts.forAnswer(attemptId);
    if (!a || a.user_id !== user.id) throw notFound(A.attemptNotFound);
    // A finished attempt refuses first, whatever else is wrong; kept facts do not say whether it is.
    const refuse = async (message: string) => {
      // Kept facts leave `finished_at` unknown (undefined): then the row says.
      const finished = a.finished_at !== undefined ? a.finished_at : (await this.attempts.find(a.id))?.finished_at;
      return unprocessable(finished ? A.attemptFinished : message);
    };
    if (a.finished_at) throw await refuse(A.attemptFinished);
    const now = this.now();
    if (a.expires_at !== null && ms(now) > ms(a.expires_at) + GRACE_MS) throw await refuse(A.timeIsUp);
    const asked = await this.asked(a);
    // Each answer is checked just before it is written: the first wrong one decides the refusal.
    const write = async () => {
      for (const g of answers) {
        const q = asked.questions.find((x) => x.id === g.test_question_id);
        const ids = [...new Set(g.answer)].sort((x, y) => x - y);
        if (!q || ids.some((id) => !q.answers.some((o) => o.id === id))) throw await refuse(A.wrongOption);
        if (ids.length > 1 && q.answers.filter((o) => o.is_correct).length === 1) throw await refuse(A.oneOption);
        const stands = await this.attempts.saveAnswer(a.id, q.id, ids, now);
        if (stands === 'finished') throw unprocessable(A.attemptFinished);
        const same = stands.length === ids.length && [...stands].sort((x, y) => x - y).every((id, i) => id === ids[i]);
        if (!same) throw unprocessable(A.alreadyAnswered);
      }
    };
    await (answers.length > 1 ? this.uow.run(write) : write());
  }

  /** Grades the attempt once; a second finish returns the first result. */
  finish(user: SessionUser, attemptId: number): Promise<AttemptView> {
    return this.uow.run(async () => {
      const a = this.owned(user, await this.attempts.holdForFinish(attemptId));
      if (a.finished_at !== null) return this.view(a, (await this.asked(a)).passing_score);
      const now = this.now();
      // After expiry the attempt ends as of its expiry, with the answers saved until then.
      const at = a.expires_at !== null && ms(now) > ms(a.expires_at) ? a.expires_at : now;
      const done = await this.finishRow(a, at);
      return this.view(done, done.snapshot.passing_score);
    });
  }

  /** The review of a finished attempt: correct options only when the test shows them. */
  async result(user: SessionUser, courseId: number, testId: number, attemptId: number) {
    const a = await this.own(user, attemptId, true);
    if (a.test_id !== testId) throw notFound(A.attemptNotFound);
    if (a.finished_at === null) throw unprocessable(A.notFinished);
    const { test, seen } = await this.seenTest(user, testId, courseId).catch(async (error: unknown) => {
      // An admin reviewing someone's attempt need not see the course as a learner.
      if (!can(user.role, 'settings.manage')) throw error;
      const found = await this.tests.find(testId, courseId);
      if (!found) throw notFound(A.notFound);
      return { test: found, seen: null };
    });
    const { next } = seen ? await this.place(test.course_id, test.id) : { next: null };
    const attempts = await this.attempts.ofUser(a.user_id, testId);
    const block = seen ? this.blocked(test, attempts, this.cycleStart(seen)) : null;
    const answers = await this.attempts.answers(a.id);
    const asked = await this.asked(a, answers);
    return {
      id: test.id,
      name: test.name,
      questions: askedQuestions(asked, answers, test.show_correct_answers),
      questions_count: asked.questions.length,
      passing_score: asked.passing_score,
      show_correct_answers: test.show_correct_answers,
      max_attempts: test.max_attempts,
      has_attempts_limit: test.has_attempts_limit,
      is_blocked: block !== null,
      attempt: this.view(a, asked.passing_score),
      next_item: next,
    };
  }

  /** Finishes attempts left open past expiry and grace (run periodically by the server). */
  async sweep(limit = 500): Promise<number> {
    const before = iso(new Date(this.clock.now().getTime() - GRACE_MS));
    const ids = await this.attempts.expiredOpen(before, limit);
    for (const id of ids) {
      await this.uow.run(async () => {
        const a = await this.attempts.holdForFinish(id);
        if (a && a.finished_at === null && a.expires_at !== null) await this.finishRow(a, a.expires_at);
      });
    }
    return ids.length;
  }
}
