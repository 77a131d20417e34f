import type { Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { KEPT } from '../../db/kept.js';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { toJson } from '../../db/values.js';
import { deepFreeze, keepNewest } from '../../lib/kept.js';
import { storedOrder } from './snapshot.js';

/** The questions and options an attempt asked, as they were at its start (docs/rules.md §Attempt snapshot). */
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
  /** Null for an attempt written before snapshots were kept: `rebuiltSnapshot` reads it from what it stored. */
  snapshot: AttemptSnapshot | null;
  score: number | null;
  correct_answers: number | null;
  is_passed: boolean | null;
}

/** An attempt held for its finish, with the course of its test. */
export type HeldAttempt = AttemptRow & { course_id: number };

export interface SavedAnswer {
  question_id: number;
  answer_ids: number[];
  answered_at: string;
}

/** Everything of an attempt row but its snapshot, which `snapshots` gives. */
const COLUMNS = [
  'id',
  'user_id',
  'test_id',
  'attempt_number',
  'started_at',
  'expires_at',
  'finished_at',
  'score',
  'correct_answers',
  'is_passed',
] as const;

type LeanAttempt = Omit<AttemptRow, 'snapshot'>;
/** What a kept snapshot is matched by: the facts of its row. */
type AttemptKey = Omit<AttemptFacts, 'snapshot'>;
type KeptFacts = AttemptFacts & { snapshot: AttemptSnapshot };

const attemptById = new PreparedQuery(['id'], (db, { id }: { id: number }) =>
  db.selectFrom('test_attempts').select(COLUMNS).where('id', '=', id),
);

/** The attempt with its test's course (which never changes), for the finish. */
const heldAttempt = (db: Kysely<Database>, id: number) =>
  db
    .selectFrom('test_attempts as a')
    .innerJoin('tests as t', 't.id', 'a.test_id')
    .innerJoin('modules as m', 'm.id', 't.module_id')
    .select(COLUMNS.map((c) => `a.${c}` as const))
    .select('m.course_id')
    .where('a.id', '=', id);
const attemptToFinish = new PreparedQuery(['id'], (db, { id }: { id: number }) => heldAttempt(db, id));
const attemptHeldById = new PreparedQuery(['id'], (db, { id }: { id: number }) => heldAttempt(db, id).forUpdate('a'));

/** Parsed snapshots kept at most (each a test's questions: a few kilobytes). */
const SNAPSHOTS_KEPT = 1000;

/**
 * What never changes once an attempt is written: everything but its finish and grade. The columns are
 * the ones db/kept.ts declares for the kept attempt facts, so the two cannot part.
 */
export type AttemptFacts = Pick<AttemptRow, (typeof KEPT.attemptFacts.dropped.reads.test_attempts)[number]>;

/**
 * A snapshot never changes once its attempt is written, so each is read and parsed once per process
 * rather than on every answer (20 answers of 2 000 learners re-parsed the same questions 40 000
 * times). An entry matches a row by id and every fact of the row, so that a row id SQLite gives again after a
 * rolled-back start never meets the snapshot of the attempt that was undone. An entry read outside a
 * transaction is of a committed attempt, which is never deleted and whose facts never change: such
 * an entry answers by id alone (`confirmed`), sparing an answer the read of its attempt. Frozen: no
 * caller can change a shared one.
 */
class AttemptCache {
  /** Only attempts with a snapshot are kept (an older one's is rebuilt by the service each time). */
  readonly #kept = new Map<number, { key: string; facts: KeptFacts; confirmed: boolean }>();

  static key(a: AttemptKey): string {
    return `${a.id}:${a.user_id}:${a.test_id}:${a.attempt_number}:${a.started_at}:${a.expires_at}`;
  }

  #touch(id: number) {
    const hit = this.#kept.get(id);
    if (hit) {
      this.#kept.delete(id);
      this.#kept.set(id, hit);
    }
    return hit;
  }

  /**
   * The snapshot of this row, if kept. A committed read (`confirmed`) takes only a confirmed entry: one
   * kept from inside a transaction is read again, so that what answers by id alone was itself read
   * committed.
   */
  get(a: LeanAttempt, confirmed: boolean): AttemptSnapshot | undefined {
    const hit = this.#touch(a.id);
    if (!hit || hit.key !== AttemptCache.key(a) || (confirmed && !hit.confirmed)) return undefined;
    return hit.facts.snapshot;
  }

  /** The facts of a committed attempt, if kept. */
  confirmed(id: number): AttemptFacts | undefined {
    const hit = this.#touch(id);
    return hit?.confirmed ? hit.facts : undefined;
  }

  set(a: AttemptKey, snapshot: AttemptSnapshot, confirmed: boolean): AttemptSnapshot {
    const { id, user_id, test_id, attempt_number, started_at, expires_at } = a;
    const facts = { id, user_id, test_id, attempt_number, started_at, expires_at, snapshot: deepFreeze(snapshot) };
    keepNewest(this.#kept, id, { key: AttemptCache.key(a), facts, confirmed }, SNAPSHOTS_KEPT);
    return facts.snapshot;
  }
}

/** test_attempts and attempt_answers: written only here, each write guarded by the database. */
export class AttemptsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  readonly #snapshots = new AttemptCache();

  async find(id: number): Promise<AttemptRow | undefined> {
    const row = (await attemptById.executeTakeFirst(this.db, { id })) as LeanAttempt | undefined;
    return row ? (await this.withSnapshots([row]))[0] : undefined;
  }

  /**
   * What an answer needs of the attempt: its facts, kept from an earlier committed read, without a
   * query (whether it is finished is then left to `saveAnswer`, which writes only into an open
   * attempt); else the row as read now.
   */
  async forAnswer(id: number): Promise<(AttemptFacts & { finished_at?: string | null }) | undefined> {
    return this.#snapshots.confirmed(id) ?? this.find(id);
  }

  /**
   * The attempt, held by the caller's unit until it commits (the finish): an answer being saved
   * meanwhile is written before the grade reads the answers, or waits and finds the attempt finished
   * (`saveAnswer`). PostgreSQL locks the row; SQLite runs one transaction at a time.
   */
  async holdForFinish(id: number): Promise<HeldAttempt | undefined> {
    const query = this.uow.kind === 'postgres' ? attemptHeldById : attemptToFinish;
    const row = (await query.executeTakeFirst(this.db, { id })) as (LeanAttempt & { course_id: number }) | undefined;
    const [withSnapshot] = row ? await this.withSnapshots([row]) : [];
    return row && withSnapshot ? { ...withSnapshot, course_id: row.course_id } : undefined;
  }

  /**
   * The rows with their snapshots: from the cache, the missing ones in one query. Gathered here before
   * answering, so that other requests filling the cache meanwhile cannot take one away; an attempt
   * from before snapshots were kept (null) stays in the list, as it was.
   */
  private async withSnapshots(rows: LeanAttempt[]): Promise<AttemptRow[]> {
    const found = new Map<number, AttemptSnapshot | null>();
    // Outside a transaction every row read has committed.
    const committed = !this.uow.inUnit;
    for (const r of rows) {
      const hit = this.#snapshots.get(r, committed);
      if (hit) found.set(r.id, hit);
    }
    const missing = rows.filter((r) => !found.has(r.id));
    if (missing.length > 0) {
      const read = await this.db
        .selectFrom('test_attempts')
        .select(['id', 'snapshot'])
        .where(
          'id',
          'in',
          missing.map((r) => r.id),
        )
        .execute();
      const byId = new Map(read.map((r) => [r.id, (r.snapshot ?? null) as AttemptSnapshot | null]));
      for (const r of missing) {
        const snapshot = byId.get(r.id) ?? null;
        found.set(r.id, snapshot === null ? null : this.#snapshots.set(r, snapshot, committed));
      }
    }
    return rows.map((r) => ({ ...r, snapshot: found.get(r.id) ?? null }));
  }

  /** A batch of the test's finished attempts, newest first, before the given id (for statistics). */
  async finishedBatch(
    testId: number,
    beforeId: number | null,
    limit: number,
  ): Promise<{ id: number; started_at: string; snapshot: AttemptSnapshot | null }[]> {
    let q = this.db
      .selectFrom('test_attempts')
      .select(['id', 'started_at', 'snapshot'])
      .where('test_id', '=', testId)
      .where('finished_at', 'is not', null);
    if (beforeId !== null) q = q.where('id', '<', beforeId);
    return (await q.orderBy('id', 'desc').limit(limit).execute()) as {
      id: number;
      started_at: string;
      snapshot: AttemptSnapshot | null;
    }[];
  }

  /** The question and option order the attempts stored (what an attempt without a snapshot is read by). */
  async storedOrders(
    attemptIds: readonly number[],
  ): Promise<Map<number, { question_order: number[]; answer_order: Record<string, number[]> }>> {
    if (attemptIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('test_attempts')
      .select(['id', 'question_order', 'answer_order'])
      .where('id', 'in', attemptIds)
      .execute();
    return new Map(rows.map(({ id, ...order }) => [id, order]));
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
    return this.withSnapshots(
      (await this.db
        .selectFrom('test_attempts')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('test_id', '=', testId)
        .orderBy('attempt_number')
        .execute()) as LeanAttempt[],
    );
  }

  /**
   * A new open attempt, with its snapshot and the order that follows from it. The unique indexes make
   * a parallel second start fail (one open attempt per user and test; attempt numbers unique), so
   * that 20 parallel starts make one attempt.
   */
  async insert(
    input: {
      user_id: number;
      test_id: number;
      attempt_number: number;
      started_at: string;
      expires_at: string | null;
      snapshot: AttemptSnapshot;
    },
    now: string,
  ): Promise<number> {
    const { question_order, answer_order } = storedOrder(input.snapshot);
    const row = await this.db
      .insertInto('test_attempts')
      .values({
        ...input,
        open_marker: 1,
        question_order: toJson(question_order),
        answer_order: toJson(answer_order),
        snapshot: toJson(input.snapshot),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its images are records with it: the cleanup keeps them, the learner's review may show them.
    const images = [...new Set(input.snapshot.questions.flatMap((q) => q.answers.flatMap((o) => o.image_path ?? [])))];
    if (images.length > 0) {
      await this.db
        .insertInto('attempt_files')
        .values(images.map((path) => ({ attempt_id: row.id, path })))
        .execute();
    }
    // The learner's next calls (the test view, each answer) then need not read the snapshot back.
    const { user_id, test_id, attempt_number, started_at, expires_at, snapshot } = input;
    this.uow.afterCommit(() =>
      this.#snapshots.set({ id: row.id, user_id, test_id, attempt_number, started_at, expires_at }, snapshot, true),
    );
    return row.id;
  }

  /** Whether a snapshot of one of the user's attempts names the file (an option's image as it was). */
  async fileInOwnAttempt(userId: number, path: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('attempt_files as f')
      .innerJoin('test_attempts as a', 'a.id', 'f.attempt_id')
      .select('f.attempt_id')
      .where('f.path', '=', path)
      .where('a.user_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Finishes an open attempt and returns it; undefined when it was finished already (the first grade stays). */
  async finish(
    a: AttemptRow,
    grade: { finished_at: string; score: number; correct_answers: number; is_passed: boolean },
    now: string,
  ): Promise<AttemptRow | undefined> {
    const row = (await this.db
      .updateTable('test_attempts')
      .set({ ...grade, open_marker: null, updated_at: now })
      .where('id', '=', a.id)
      .where('finished_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst()) as LeanAttempt | undefined;
    return row ? { ...row, snapshot: a.snapshot } : undefined;
  }

  async answers(attemptId: number): Promise<SavedAnswer[]> {
    return this.db
      .selectFrom('attempt_answers')
      .select(['question_id', 'answer_ids', 'answered_at'])
      .where('attempt_id', '=', attemptId)
      .execute();
  }

  /**
   * Saves an answer unless the question has one, in one statement that also requires the attempt to
   * be open: it holds the attempt's row (PostgreSQL) until written, so a finish either grades this
   * answer or has finished first and nothing is written. Returns the answer that stands, or
   * 'finished' when the attempt is finished (a finished attempt takes no answer, not even a repeat).
   */
  async saveAnswer(
    attemptId: number,
    questionId: number,
    answerIds: number[],
    at: string,
  ): Promise<number[] | 'finished'> {
    const written = await this.db
      .insertInto('attempt_answers')
      .columns(['attempt_id', 'question_id', 'answer_ids', 'answered_at'])
      .expression((eb) => {
        const open = eb
          .selectFrom('test_attempts')
          .select(['id', eb.val(questionId).as('question_id'), eb.val(toJson(answerIds)).as('answer_ids')])
          .select(eb.val(at).as('answered_at'))
          .where('id', '=', attemptId)
          .where('finished_at', 'is', null);
        return this.uow.kind === 'postgres' ? open.forShare() : open;
      })
      .onConflict((oc) => oc.columns(['attempt_id', 'question_id']).doNothing())
      .returning('answer_ids')
      .executeTakeFirst();
    if (written) return written.answer_ids;
    const standing = await this.db
      .selectFrom('test_attempts as t')
      .leftJoin('attempt_answers as a', (j) =>
        j.onRef('a.attempt_id', '=', 't.id').on('a.question_id', '=', questionId),
      )
      .select(['t.finished_at', 'a.answer_ids'])
      .where('t.id', '=', attemptId)
      .executeTakeFirst();
    return !standing || standing.finished_at !== null || standing.answer_ids === null
      ? 'finished'
      : standing.answer_ids;
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
