import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';

interface Option {
  id: number;
  value: string;
  is_correct?: boolean;
  is_selected: boolean;
}
interface Question {
  id: number;
  question: string;
  multiple: boolean;
  isAnswered: boolean;
  options: Option[];
}

/**
 * Attempts written without a snapshot (before migration 0003 kept one, or by an older demo loader):
 * every call that reads them answers from what is stored — the attempt's question order, its saved
 * answers and the test's question rows — and never with a 500 (issue 30 item 17).
 */
describe(`attempts without a snapshot (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  let learnerId: number;
  let course: number;
  let testId: number;
  /** Question ids in order, and each question's option ids (the first ones correct). */
  const questions: { id: number; options: number[] }[] = [];

  beforeEach(async () => {
    ctx = await createTestApp();
    const l = await clientAs(ctx, 'learner');
    learner = l.client;
    learnerId = l.user.id;
    course = await createCourse(ctx.db, 'Курс', { is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', course).execute();
    testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
    await ctx.db.kysely
      .updateTable('tests')
      .set({ passing_score: 70, show_correct_answers: true })
      .where('id', '=', testId)
      .execute();
    questions.length = 0;
    // Question 2 has two correct options (multiple choice).
    for (const [n, right] of [
      [1, 1],
      [2, 2],
      [3, 1],
    ] as const) {
      const q = await ctx.db.kysely
        .insertInto('test_questions')
        .values({ test_id: testId, question_text: `Вопрос ${n}`, sort_order: n })
        .returning('id')
        .executeTakeFirstOrThrow();
      const options: number[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await ctx.db.kysely
          .insertInto('test_answers')
          .values({ question_id: q.id, answer_text: `Ответ ${n}.${i}`, is_correct: i < right, sort_order: i })
          .returning('id')
          .executeTakeFirstOrThrow();
        options.push(a.id);
      }
      questions.push({ id: q.id, options });
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  const q = (n: number) => questions[n - 1] as { id: number; options: number[] };

  /** An attempt row as the old code wrote it: no snapshot, the question order and answers stored. */
  async function legacyAttempt(input: {
    number: number;
    startedAt: string;
    finishedAt: string | null;
    expiresAt?: string | null;
    order: number[];
    answers: [questionId: number, optionIds: number[]][];
    grade?: { score: number; correct: number; passed: boolean };
  }): Promise<number> {
    const row = await ctx.db.kysely
      .insertInto('test_attempts')
      .values({
        user_id: learnerId,
        test_id: testId,
        attempt_number: input.number,
        started_at: input.startedAt,
        expires_at: input.expiresAt ?? null,
        finished_at: input.finishedAt,
        open_marker: input.finishedAt === null ? 1 : null,
        question_order: JSON.stringify(input.order),
        answer_order: '{}',
        score: input.grade?.score ?? null,
        correct_answers: input.grade?.correct ?? null,
        is_passed: input.grade?.passed ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [k, [questionId, ids]] of input.answers.entries()) {
      await ctx.db.kysely
        .insertInto('attempt_answers')
        .values({
          attempt_id: row.id,
          question_id: questionId,
          answer_ids: JSON.stringify(ids),
          answered_at: new Date(Date.parse(input.startedAt) + (k + 1) * 10 * SECOND).toISOString(),
        })
        .execute();
    }
    return row.id;
  }

  it("reviews a finished one from its stored order and answers, with the test's rows as they are", async () => {
    // Right on 1, wrong on 2 (one of its two options), 3 left unanswered; question 3 deleted since.
    const id = await legacyAttempt({
      number: 1,
      startedAt: '2026-01-10T10:00:00.000Z',
      finishedAt: '2026-01-10T10:05:00.000Z',
      order: [q(3).id, q(1).id, q(2).id],
      answers: [
        [q(1).id, [q(1).options[0] as number]],
        [q(2).id, [q(2).options[0] as number]],
      ],
      grade: { score: 33, correct: 1, passed: false },
    });
    await ctx.db.kysely
      .updateTable('test_questions')
      .set({ deleted_at: '2026-01-11T00:00:00.000Z' })
      .where('id', '=', q(3).id)
      .execute();

    const res = await learner.get(`/api/courses/${course}/tests/${testId}/${id}/result`);
    expect(res.statusCode, res.body).toBe(200);
    const test = res.json().result.test;
    expect(test).toMatchObject({
      questions_count: 3,
      passing_score: 70,
      attempt: { id, score: 33, correct_answers: 1, is_passed: false },
    });
    const shown = test.questions as Question[];
    expect(shown.map((x) => x.question)).toEqual(['Вопрос 3', 'Вопрос 1', 'Вопрос 2']);
    expect(shown.map((x) => x.isAnswered)).toEqual([false, true, true]);
    expect(shown[2]?.multiple).toBe(true);
    expect(shown[1]?.options.map((o) => [o.is_selected, o.is_correct])).toEqual([
      [true, true],
      [false, false],
      [false, false],
    ]);

    // The introduction lists it, graded against the test's pass mark (none was kept with it).
    const intro = (await learner.get(`/api/courses/${course}/tests/${testId}`)).json().result.test;
    expect(intro.attempts).toMatchObject([{ id, passing_score: 70, is_passed: false }]);
  });

  it('gives the author figures over it, next to attempts with a snapshot', async () => {
    await legacyAttempt({
      number: 1,
      startedAt: '2026-01-10T10:00:00.000Z',
      finishedAt: '2026-01-10T10:05:00.000Z',
      order: [q(1).id, q(2).id, q(3).id],
      answers: [
        [q(1).id, [q(1).options[1] as number]],
        [q(2).id, [q(2).options[0] as number, q(2).options[1] as number]],
      ],
      grade: { score: 33, correct: 1, passed: false },
    });
    // An attempt whose order was never stored: the questions it answered are what it asked.
    await legacyAttempt({
      number: 2,
      startedAt: '2026-01-11T10:00:00.000Z',
      finishedAt: '2026-01-11T10:05:00.000Z',
      order: [],
      answers: [[q(1).id, [q(1).options[0] as number]]],
      grade: { score: 100, correct: 1, passed: true },
    });
    const { client: author } = await clientAs(ctx, 'author');
    const res = await author.get(`/api/admin/tests/${testId}/statistics`);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().result as {
      attempts: number;
      questions: { question_text: string; asked: number; answered: number; correct_percent: number | null }[];
    };
    expect(result.attempts).toBe(2);
    const of = (text: string) => result.questions.find((x) => x.question_text === text);
    expect(of('Вопрос 1')).toMatchObject({ asked: 2, answered: 2, correct_percent: 50 });
    expect(of('Вопрос 2')).toMatchObject({ asked: 1, answered: 1, correct_percent: 100 });
    expect(of('Вопрос 3')).toMatchObject({ asked: 1, answered: 0, correct_percent: null });
  });

  it('continues, answers and grades an open one, and finishes one that ran out', async () => {
    const open = await legacyAttempt({
      number: 1,
      startedAt: ctx.clock.now().toISOString(),
      finishedAt: null,
      order: [q(1).id, q(2).id],
      answers: [[q(1).id, [q(1).options[0] as number]]],
    });
    const view = await learner.get(`/api/courses/${course}/tests/${testId}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.body).not.toContain('is_correct');
    const test = view.json().result.test;
    expect(test.questions_count).toBe(2);
    expect((test.questions as Question[]).map((x) => [x.question, x.isAnswered])).toEqual([
      ['Вопрос 1', true],
      ['Вопрос 2', false],
    ]);
    const started = await learner.post('/api/test-attempts/start', { course_test_id: testId });
    expect(started.json().result).toMatchObject({ message: 'Продолжаем тест!', attempt: { id: open } });
    const saved = await learner.post('/api/test-attempts/save-answers', {
      attempt_id: open,
      answers: [{ test_question_id: q(2).id, answer: q(2).options.slice(0, 2) }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const outside = await learner.post('/api/test-attempts/save-answers', {
      attempt_id: open,
      answers: [{ test_question_id: q(3).id, answer: [q(3).options[0] as number] }],
    });
    expect(outside.statusCode).toBe(422);
    const done = await learner.post('/api/test-attempts/finish', { attempt_id: open });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().result).toMatchObject({ score: 100, correct_answers: 2, is_passed: true });

    // A timed one left open past its time is finished by the sweep as of its expiry.
    const now = ctx.clock.now().getTime();
    const ranOut = await legacyAttempt({
      number: 2,
      startedAt: new Date(now - 120 * SECOND).toISOString(),
      expiresAt: new Date(now - 60 * SECOND).toISOString(),
      finishedAt: null,
      order: [q(1).id, q(2).id, q(3).id],
      answers: [[q(3).id, [q(3).options[1] as number]]],
    });
    expect(await ctx.app.jobs.sweepExpiredAttempts()).toBe(1);
    const row = await ctx.db.kysely
      .selectFrom('test_attempts')
      .select(['finished_at', 'expires_at', 'score'])
      .where('id', '=', ranOut)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ finished_at: row.expires_at, score: 0 });
  });
});
