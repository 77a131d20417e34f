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

/**
 * What the test page reads of attempts (issue 30): each attempt's deadline and the server's clock for
 * the countdown, the pass mark each attempt was graded against, and the pass of the current cycle.
 */
describe(`attempt views (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  let course: number;
  let testId: number;
  let right: number;
  let wrong: number;
  let questionId: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    learner = (await clientAs(ctx, 'learner')).client;
    course = await createCourse(ctx.db, 'Курс', { is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', course).execute();
    testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
    const q = await ctx.db.kysely
      .insertInto('test_questions')
      .values({ test_id: testId, question_text: 'Вопрос', sort_order: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    questionId = q.id;
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const a = await ctx.db.kysely
        .insertInto('test_answers')
        .values({ question_id: q.id, answer_text: `Ответ ${i}`, is_correct: i === 0, sort_order: i })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(a.id);
    }
    [right, wrong] = ids as [number, number];
  });
  afterEach(async () => {
    await ctx.close();
  });

  const settings = (values: Record<string, unknown>) =>
    ctx.db.kysely.updateTable('tests').set(values).where('id', '=', testId).execute();
  const view = async () => {
    const res = await learner.get(`/api/courses/${course}/tests/${testId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result;
  };
  async function attempt(option: number): Promise<number> {
    const id = (await learner.post('/api/test-attempts/start', { course_test_id: testId })).json().result.attempt
      .id as number;
    await learner.post('/api/test-attempts/save-answers', {
      attempt_id: id,
      answers: [{ test_question_id: questionId, answer: [option] }],
    });
    expect((await learner.post('/api/test-attempts/finish', { attempt_id: id })).statusCode).toBe(200);
    return id;
  }

  it("gives an open attempt its fixed deadline and the server's time with the test", async () => {
    await settings({ has_timer: true, timer_seconds: 600 });
    const startedAt = ctx.clock.now().getTime();
    await learner.post('/api/test-attempts/start', { course_test_id: testId });
    const deadline = new Date(startedAt + 600 * SECOND).toISOString();
    for (const later of [0, 100, 250]) {
      ctx.clock.advance(later * SECOND);
      const result = await view();
      expect(result.server_time).toBe(ctx.clock.now().toISOString());
      expect(result.test.active_attempts[0]).toMatchObject({ expires_at: deadline });
    }
    // An untimed test's attempt has no deadline.
    await settings({ has_timer: false });
    ctx.clock.advance(600 * SECOND);
    await learner.post('/api/test-attempts/start', { course_test_id: testId });
    expect((await view()).test.active_attempts[0]).toMatchObject({ expires_at: null });
  });

  it('lists each attempt with the pass mark it was graded against', async () => {
    await settings({ passing_score: 60 });
    const first = await attempt(wrong);
    await settings({ passing_score: 90 });
    const second = await attempt(right);
    const test = (await view()).test;
    expect(test.passing_score).toBe(90);
    expect(test.attempts).toMatchObject([
      { id: first, passing_score: 60, is_passed: false },
      { id: second, passing_score: 90, is_passed: true },
    ]);
    const review = (await learner.get(`/api/courses/${course}/tests/${testId}/${first}/result`)).json().result.test;
    expect(review).toMatchObject({ passing_score: 60, attempt: { id: first, passing_score: 60 } });
  });

  it('names the pass of the current cycle, also when no attempt is left', async () => {
    await settings({ has_attempts_limit: true, max_attempts: 2, passing_score: 100 });
    expect((await view()).test.passed_attempt).toBeNull();
    await attempt(wrong);
    expect((await view()).test.passed_attempt).toBeNull();
    ctx.clock.advance(60 * SECOND);
    const passed = await attempt(right);
    const test = (await view()).test;
    expect(test).toMatchObject({ is_blocked: true, blocked_until: null });
    expect(test.passed_attempt).toMatchObject({ id: passed, is_passed: true, score: 100 });
    expect(test.passed_attempt.finished_at).toBe(ctx.clock.now().toISOString());
  });
});
