import type { UnitOfWork } from '../../db/unitOfWork.js';
import { toJson } from '../../db/values.js';

/** The questions and options an attempt asked, as they were at its start (DESIGN.md "Attempt snapshot"). */
export interface AttemptSnapshot {
  passing_score: number;
  questions: {
    id: number;
    type: 'text' | 'image';
    question_text: string;
    answers: { id: number; answer_text: string; image_path: string | null; is_correct: boolean }[];
  }[];
}

export interface AttemptRow {
  id: number;
  user_id: number;
  test_id: number;
  attempt_number: number;
  started_at: string;
  expires_at: string | null;
  finished_at: string | null;
  snapshot: AttemptSnapshot;
  score: number | null;
  correct_answers: number | null;
  is_passed: boolean | null;
}

export interface SavedAnswer {
  question_id: number;
  answer_ids: number[];
  answered_at: string;
}

const COLUMNS = [
  'id',
  'user_id',
  'test_id',
  'attempt_number',
  'started_at',
  'expires_at',
  'finished_at',
  'snapshot',
  'score',
  'correct_answers',
  'is_passed',
] as const;

/** test_attempts and attempt_answers: written only here, each write guarded by the database. */
export class AttemptsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  async find(id: number): Promise<AttemptRow | undefined> {
    return (await this.db.selectFrom('test_attempts').select(COLUMNS).where('id', '=', id).executeTakeFirst()) as
      AttemptRow | undefined;
  }

  /** A batch of the test's finished attempts, newest first, before the given id (for statistics). */
  async finishedBatch(
    testId: number,
    beforeId: number | null,
    limit: number,
  ): Promise<{ id: number; started_at: string; snapshot: AttemptSnapshot }[]> {
    let q = this.db
      .selectFrom('test_attempts')
      .select(['id', 'started_at', 'snapshot'])
      .where('test_id', '=', testId)
      .where('finished_at', 'is not', null);
    if (beforeId !== null) q = q.where('id', '<', beforeId);
    return (await q.orderBy('id', 'desc').limit(limit).execute()) as {
      id: number;
      started_at: string;
      snapshot: AttemptSnapshot;
    }[];
  }

  /** The answers of several attempts, by attempt. */
  async answersOf(attemptIds: readonly number[]): Promise<Map<number, SavedAnswer[]>> {
    const out = new Map<number, SavedAnswer[]>();
    if (attemptIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('attempt_answers')
      .select(['attempt_id', 'question_id', 'answer_ids', 'answered_at'])
      .where('attempt_id', 'in', attemptIds)
      .execute();
    for (const { attempt_id, ...answer } of rows) out.set(attempt_id, [...(out.get(attempt_id) ?? []), answer]);
    return out;
  }

  /** Every attempt of the user at the test, oldest first. */
  async ofUser(userId: number, testId: number): Promise<AttemptRow[]> {
    return (await this.db
      .selectFrom('test_attempts')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .where('test_id', '=', testId)
      .orderBy('attempt_number')
      .execute()) as AttemptRow[];
  }

  /**
   * A new open attempt. The unique indexes make a parallel second start fail (one open attempt per
   * user and test; attempt numbers unique), so that 20 parallel starts make one attempt.
   */
  async insert(
    input: {
      user_id: number;
      test_id: number;
      attempt_number: number;
      started_at: string;
      expires_at: string | null;
      question_order: number[];
      answer_order: Record<string, number[]>;
      snapshot: AttemptSnapshot;
    },
    now: string,
  ): Promise<number> {
    const row = await this.db
      .insertInto('test_attempts')
      .values({
        ...input,
        open_marker: 1,
        question_order: toJson(input.question_order),
        answer_order: toJson(input.answer_order),
        snapshot: toJson(input.snapshot),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Finishes an open attempt; false when it was finished already (the first grade stays). */
  async finish(
    id: number,
    grade: { finished_at: string; score: number; correct_answers: number; is_passed: boolean },
    now: string,
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('test_attempts')
      .set({ ...grade, open_marker: null, updated_at: now })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async answers(attemptId: number): Promise<SavedAnswer[]> {
    return this.db
      .selectFrom('attempt_answers')
      .select(['question_id', 'answer_ids', 'answered_at'])
      .where('attempt_id', '=', attemptId)
      .execute();
  }

  /** Saves an answer unless the question has one; returns the answer that stands. */
  async saveAnswer(attemptId: number, questionId: number, answerIds: number[], at: string): Promise<number[]> {
    await this.db
      .insertInto('attempt_answers')
      .values({ attempt_id: attemptId, question_id: questionId, answer_ids: toJson(answerIds), answered_at: at })
      .onConflict((oc) => oc.columns(['attempt_id', 'question_id']).doNothing())
      .execute();
    const row = await this.db
      .selectFrom('attempt_answers')
      .select('answer_ids')
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .executeTakeFirstOrThrow();
    return row.answer_ids;
  }

  /** Open attempts whose time ran out before `before` (the periodic sweep). */
  async expiredOpen(before: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('test_attempts')
      .select('id')
      .where('finished_at', 'is', null)
      .where('expires_at', '<', before)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}
