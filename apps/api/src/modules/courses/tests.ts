import type { TestSettings } from '@lms/contract';
import type { Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { deepFreeze, keepNewest } from '../../lib/kept.js';

export interface TestRow extends TestSettings {
  id: number;
  module_id: number;
  course_id: number;
  name: string;
  is_published: boolean;
  sort_order: number;
  /**
   * `counters.test_contents_version` as read with the test: raised whenever a column of any test's
   * questions or options that the askable rows read is written (db/kept.ts), it says whether kept
   * askable rows still hold.
   */
  content_version: number;
}

export interface QuestionRow {
  id: number;
  title: string;
  type: 'text' | 'image';
  question_text: string;
  sort_order: number;
}

/** A test's questions that have options, in order, and their options. */
export interface Askable {
  readonly questions: readonly QuestionRow[];
  readonly options: readonly AnswerRow[];
}

export interface AnswerRow {
  id: number;
  question_id: number;
  answer_text: string;
  is_correct: boolean;
  image_path: string | null;
  sort_order: number;
}

/**
 * Every question a test ever had (deleted ones too), with the options they have now, and its pass
 * mark: what an attempt written without a snapshot is read against.
 */
export interface TestContent {
  passing_score: number;
  questions: readonly QuestionRow[];
  options: readonly AnswerRow[];
}

const SETTINGS = [
  'passing_score',
  'has_timer',
  'timer_seconds',
  'has_retake_interval',
  'retake_interval_seconds',
  'has_attempts_limit',
  'max_attempts',
  'has_question_bank',
  'question_bank_size',
  'randomize_questions',
  'randomize_answers',
  'show_correct_answers',
] as const;

/**
 * The version of every test's questions and options, read in the statement that needs it. Built, not
 * written as SQL text, so that kept.test.ts can see what the askable read reads.
 */
const contentsVersion = (db: Kysely<Database>) =>
  db
    .selectFrom('counters')
    .select('value')
    .where('name', '=', 'test_contents_version')
    .$asScalar()
    .as('content_version');

/**
 * What a start draws from (`askable`), in one statement with the version it belongs to. Its reads are
 * declared in db/kept.ts (`KEPT.askable`), whose triggers raise the version: kept.test.ts compiles it
 * and fails on a column the declaration does not name.
 */
export const askableRows = new PreparedQuery(['testId'], (db, { testId }: { testId: number }) =>
  db
    .selectFrom('test_questions as q')
    .innerJoin('test_answers as a', 'a.question_id', 'q.id')
    .select(contentsVersion(db))
    .select(['q.id as q_id', 'q.title', 'q.type', 'q.question_text', 'q.sort_order as q_sort'])
    .select(['a.id', 'a.answer_text', 'a.is_correct', 'a.image_path', 'a.sort_order'])
    .where('q.test_id', '=', testId)
    .where('q.deleted_at', 'is', null)
    .orderBy('q.sort_order')
    .orderBy('q.id')
    .orderBy('a.sort_order')
    .orderBy('a.id'),
);

/** Tests whose askable rows a process keeps, at most (each a test's questions: a few kilobytes). */
const ASKABLE_KEPT = 200;

/** Tests, their questions and answers (the courses module owns the content tables). */
export class TestsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /**
   * Askable rows by test, with the `content_version` they were read at. Only rows read outside a
   * transaction are kept: those have committed, so no rolled-back change can have left its version
   * number on them.
   */
  readonly #askable = new Map<number, { version: number; askable: Askable }>();

  private get db() {
    return this.uow.db;
  }

  /** A live test of a live module of a live course (the course given, or any). */
  find(testId: number, courseId?: number): Promise<TestRow | undefined> {
    let q = this.db
      .selectFrom('tests')
      .innerJoin('modules', 'modules.id', 'tests.module_id')
      .innerJoin('courses', 'courses.id', 'modules.course_id')
      .select([
        'tests.id',
        'tests.module_id',
        'modules.course_id',
        'tests.name',
        'tests.is_published',
        'tests.sort_order',
        ...SETTINGS.map((c) => `tests.${c}` as const),
      ])
      .select(contentsVersion(this.db))
      .where('tests.id', '=', testId)
      .where('tests.deleted_at', 'is', null)
      .where('modules.deleted_at', 'is', null)
      .where('courses.deleted_at', 'is', null);
    if (courseId !== undefined) q = q.where('modules.course_id', '=', courseId);
    return q.executeTakeFirst();
  }

  async insert(
    input: Partial<TestSettings> & { module_id: number; name: string; sort_order: number },
    now: string,
  ): Promise<number> {
    const row = await this.db
      .insertInto('tests')
      .values({ ...input, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    change: Partial<TestSettings> & { name?: string; is_published?: boolean },
    now: string,
  ): Promise<void> {
    await this.db
      .updateTable('tests')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async softDelete(id: number, now: string): Promise<void> {
    await this.db.updateTable('tests').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
  }

  questions(testId: number): Promise<QuestionRow[]> {
    return this.db
      .selectFrom('test_questions')
      .select(['id', 'title', 'type', 'question_text', 'sort_order'])
      .where('test_id', '=', testId)
      .where('deleted_at', 'is', null)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  answers(questionIds: readonly number[]): Promise<AnswerRow[]> {
    if (questionIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('test_answers')
      .select(['id', 'question_id', 'answer_text', 'is_correct', 'image_path', 'sort_order'])
      .where('question_id', 'in', questionIds)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  /** The test's content for attempts kept without a snapshot (see `TestContent`); deleted rows included. */
  async content(testId: number): Promise<TestContent> {
    const test = await this.db.selectFrom('tests').select('passing_score').where('id', '=', testId).executeTakeFirst();
    const questions = await this.db
      .selectFrom('test_questions')
      .select(['id', 'title', 'type', 'question_text', 'sort_order'])
      .where('test_id', '=', testId)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
    const options = await this.answers(questions.map((q) => q.id));
    return { passing_score: test?.passing_score ?? 0, questions, options };
  }

  /**
   * The test's live questions that have options, in order, with their options in order: what a start
   * draws from. Kept per process while the test's `content_version` is the one given (read with the
   * test); else read in one statement with the version they belong to. Frozen: shared by every start.
   */
  async askable(testId: number, version: number): Promise<Askable> {
    // Inside a transaction its own uncommitted changes may not have raised the version yet (PostgreSQL
    // raises it at commit): read what the transaction sees.
    const kept = this.uow.inUnit ? undefined : this.#askable.get(testId);
    if (kept?.version === version) return kept.askable;
    const rows = await askableRows.execute(this.db, { testId });
    const questions: QuestionRow[] = [];
    for (const r of rows)
      if (questions.at(-1)?.id !== r.q_id)
        questions.push({
          id: r.q_id,
          title: r.title,
          type: r.type,
          question_text: r.question_text,
          sort_order: r.q_sort,
        });
    const options = rows.map((r) => ({
      id: r.id,
      question_id: r.q_id,
      answer_text: r.answer_text,
      is_correct: r.is_correct,
      image_path: r.image_path,
      sort_order: r.sort_order,
    }));
    const askable = deepFreeze({ questions, options });
    // A test with no askable question has no row to say its version: nothing is kept for it.
    const readAt = rows[0]?.content_version;
    if (readAt !== undefined && !this.uow.inUnit) {
      keepNewest(this.#askable, testId, { version: readAt, askable }, ASKABLE_KEPT);
    }
    return askable;
  }

  async insertQuestion(testId: number, q: Omit<QuestionRow, 'id'>, now: string): Promise<number> {
    const row = await this.db
      .insertInto('test_questions')
      .values({ ...q, test_id: testId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateQuestion(id: number, q: Omit<QuestionRow, 'id'>, now: string): Promise<void> {
    await this.db
      .updateTable('test_questions')
      .set({ ...q, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Questions left out of a save are deleted softly: finished attempts' answers still refer to them. */
  async softDeleteQuestionsExcept(testId: number, keepIds: readonly number[], now: string): Promise<void> {
    let q = this.db
      .updateTable('test_questions')
      .set({ deleted_at: now, updated_at: now })
      .where('test_id', '=', testId)
      .where('deleted_at', 'is', null);
    if (keepIds.length > 0) q = q.where('id', 'not in', keepIds);
    await q.execute();
  }

  async insertAnswer(a: Omit<AnswerRow, 'id'>, now: string): Promise<number> {
    const row = await this.db
      .insertInto('test_answers')
      .values({ ...a, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateAnswer(id: number, a: Omit<AnswerRow, 'id'>, now: string): Promise<void> {
    await this.db
      .updateTable('test_answers')
      .set({ ...a, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Options are the question's own content; attempts keep what they asked in their snapshot. */
  async deleteAnswersExcept(questionId: number, keepIds: readonly number[]): Promise<void> {
    let q = this.db.deleteFrom('test_answers').where('question_id', '=', questionId);
    if (keepIds.length > 0) q = q.where('id', 'not in', keepIds);
    await q.execute();
  }
}
