import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  TEST_DATABASE_URL,
  type Client,
  type TestContext,
} from '../../test/harness.js';

interface Q {
  id: number;
  question: string;
  multiple: boolean;
  correctAnswers: number;
  isAnswered: boolean;
  options: { id: number; value: string; is_correct?: boolean; is_selected: boolean }[];
}

describe(`test engine (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  let course: number;
  let testId: number;
  /** Correct option ids by question text. */
  const correct = new Map<string, number[]>();
  beforeEach(async () => {
    ctx = await createTestApp();
    const l = await clientAs(ctx, 'learner');
    learner = l.client;
    course = await createCourse(ctx.db, 'Курс', { is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', course).execute();
    testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
    correct.clear();
    for (let i = 1; i <= 5; i++) await addQuestion(`Вопрос ${i}`, i === 5 ? 2 : 1);
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function addQuestion(text: string, rightCount: number) {
    const q = await ctx.db.kysely
      .insertInto('test_questions')
      .values({ test_id: testId, question_text: text, sort_order: correct.size })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await ctx.db.kysely
        .insertInto('test_answers')
        .values({ question_id: q.id, answer_text: `Ответ ${i}`, is_correct: i < rightCount, sort_order: i })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i < rightCount) ids.push(a.id);
    }
    correct.set(text, ids);
  }
  const settings = (values: Record<string, unknown>) =>
    ctx.db.kysely.updateTable('tests').set(values).where('id', '=', testId).execute();
  const getTest = async (client = learner) =>
    (await client.get(`/api/courses/${course}/tests/${testId}`)).json().result;
  const start = async (client = learner) => client.post('/api/test-attempts/start', { course_test_id: testId });
  const answer = (attemptId: number, questionId: number, ids: number[], client = learner) =>
    client.post('/api/test-attempts/save-answers', {
      attempt_id: attemptId,
      answers: [{ test_question_id: questionId, answer: ids }],
    });
  const finish = (attemptId: number, client = learner) =>
    client.post('/api/test-attempts/finish', { attempt_id: attemptId });

  it('takes a test: no correct option leaves the server before finish; answers are final; grading is exact', async () => {
    const before = await getTest();
    expect(before.test).toMatchObject({ questions: [], questions_count: 5, is_blocked: false, active_attempts: [] });
    const started = await start();
    expect(started.json().result).toMatchObject({ success: true, message: 'Тест начат!' });
    const attemptId = started.json().result.attempt.id as number;
    expect((await start()).json().result).toMatchObject({ message: 'Продолжаем тест!', attempt: { id: attemptId } });

    const raw = await learner.get(`/api/courses/${course}/tests/${testId}`);
    expect(raw.body).not.toContain('is_correct');
    const questions = raw.json().result.test.questions as Q[];
    expect(questions.map((q) => q.question)).toEqual(['Вопрос 1', 'Вопрос 2', 'Вопрос 3', 'Вопрос 4', 'Вопрос 5']);
    expect(questions[4]).toMatchObject({ multiple: true, correctAnswers: 2 });

    // Right on 1, 2 and 5 (both options), wrong on 3, 4 left unanswered: 3 of 5 = 60 %.
    const right = (q: Q) => correct.get(q.question) ?? [];
    const [q1, q2, q3, , q5] = questions as [Q, Q, Q, Q, Q];
    expect((await answer(attemptId, q1.id, right(q1))).statusCode).toBe(200);
    expect((await answer(attemptId, q1.id, right(q1))).statusCode).toBe(200);
    const changed = await answer(attemptId, q1.id, [q1.options.find((o) => !right(q1).includes(o.id))?.id ?? 0]);
    expect(changed.statusCode).toBe(422);
    await answer(attemptId, q2.id, right(q2));
    await answer(attemptId, q3.id, [q3.options.find((o) => !right(q3).includes(o.id))?.id ?? 0]);
    expect((await answer(attemptId, q3.id, [q1.options[0]?.id ?? 0])).statusCode).toBe(422);
    expect(
      (
        await answer(
          attemptId,
          q2.id,
          q2.options.map((o) => o.id),
        )
      ).statusCode,
    ).toBe(422);
    await answer(attemptId, q5.id, right(q5));
    const afterAnswers = (await getTest()).test.questions as Q[];
    expect(afterAnswers.map((q) => q.isAnswered)).toEqual([true, true, true, false, true]);

    await settings({ passing_score: 60, show_correct_answers: false });
    const done = await finish(attemptId);
    expect(done.json().result).toMatchObject({
      score: 60,
      correct_answers: 3,
      is_passed: true,
      message: 'Тест завершен!',
    });
    ctx.clock.advance(5 * SECOND);
    const again = await finish(attemptId);
    expect(again.json().result.finished_at).toBe(done.json().result.finished_at);
    expect((await answer(attemptId, questions[3]?.id ?? 0, [1])).statusCode).toBe(422);

    const review = await learner.get(`/api/courses/${course}/tests/${testId}/${attemptId}/result`);
    expect(review.statusCode).toBe(200);
    expect(review.body).not.toContain('is_correct');
    await settings({ show_correct_answers: true });
    const shown = (await learner.get(`/api/courses/${course}/tests/${testId}/${attemptId}/result`)).json().result.test;
    expect(
      shown.questions[0].options.filter((o: { is_correct: boolean }) => o.is_correct).map((o: { id: number }) => o.id),
    ).toEqual(right(q1));
    const intro = (await getTest()).test;
    expect(intro).toMatchObject({ questions: [], last_attempt: { id: attemptId, score: 60, is_passed: true } });

    const { client: stranger } = await clientAs(ctx, 'learner');
    expect((await stranger.get(`/api/courses/${course}/tests/${testId}/${attemptId}/result`)).statusCode).toBe(404);
    expect((await finish(attemptId, stranger)).statusCode).toBe(404);
    const { client: admin } = await clientAs(ctx, 'admin');
    expect((await admin.get(`/api/courses/${course}/tests/${testId}/${attemptId}/result`)).statusCode).toBe(200);
  });

  it('enforces the timer by the server clock, with 5 s of grace, and finishes as of expiry', async () => {
    await settings({ has_timer: true, timer_seconds: 60 });
    const attemptId = (await start()).json().result.attempt.id as number;
    const [q1, q2] = (await getTest()).test.questions as [Q, Q];
    ctx.clock.advance(62 * SECOND);
    expect((await answer(attemptId, q1.id, correct.get(q1.question) ?? [])).statusCode).toBe(200);
    ctx.clock.advance(10 * SECOND);
    const late = await answer(attemptId, q2.id, correct.get(q2.question) ?? []);
    expect([late.statusCode, late.json().result.message]).toEqual([422, 'Время теста истекло! Попытка завершена.']);
    const done = (await finish(attemptId)).json().result;
    const row = await ctx.db.kysely
      .selectFrom('test_attempts')
      .select(['started_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ finished_at: row.expires_at, correct_answers: 1, score: 20 });
  });

  it('finishes an attempt left open past its time when next touched, and by the sweep', async () => {
    await settings({ has_timer: true, timer_seconds: 30 });
    const first = (await start()).json().result.attempt.id as number;
    ctx.clock.advance(40 * SECOND);
    const second = (await start()).json().result;
    expect(second.message).toBe('Тест начат!');
    expect(second.attempt.id).not.toBe(first);
    const closed = await ctx.db.kysely
      .selectFrom('test_attempts')
      .select(['finished_at', 'expires_at'])
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect(closed.finished_at).toBe(closed.expires_at);
    ctx.clock.advance(40 * SECOND);
    expect(await ctx.app.jobs.sweepExpiredAttempts()).toBe(1);
    const swept = await ctx.db.kysely
      .selectFrom('test_attempts')
      .select('finished_at')
      .where('id', '=', second.attempt.id)
      .executeTakeFirstOrThrow();
    expect(swept.finished_at).not.toBeNull();
  });

  it('blocks for ever after the attempt limit and until the retake interval has passed', async () => {
    await settings({
      has_attempts_limit: true,
      max_attempts: 2,
      has_retake_interval: true,
      retake_interval_seconds: 3600,
    });
    const a1 = (await start()).json().result.attempt.id as number;
    await finish(a1);
    const wait = await start();
    const until = new Date(ctx.clock.now().getTime() + 3600 * SECOND).toISOString();
    expect([wait.statusCode, wait.json().result.blocked_until]).toEqual([422, until]);
    expect((await getTest()).test).toMatchObject({ is_blocked: true, blocked_until: until });
    ctx.clock.advance(3600 * SECOND);
    const a2 = (await start()).json().result.attempt.id as number;
    await finish(a2);
    ctx.clock.advance(7200 * SECOND);
    const never = await start();
    expect(never.statusCode).toBe(422);
    expect(never.json().result).toEqual({
      success: false,
      message: 'Вы исчерпали все доступные попытки.',
      blocked_until: null,
    });
    expect((await getTest()).test).toMatchObject({ is_blocked: true, blocked_until: null });
  });

  it('gives authors per-question figures from finished attempts as they were asked', async () => {
    const { client: author } = await clientAs(ctx, 'author');
    const stats = async () => {
      const res = await author.get(`/api/admin/tests/${testId}/statistics`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result as {
        attempts: number;
        questions: {
          question_id: number;
          question_text: string;
          asked: number;
          answered: number;
          correct_percent: number | null;
          top_wrong_option: { id: number; text: string; count: number } | null;
          average_seconds: number | null;
        }[];
      };
    };
    expect(await stats()).toEqual({ success: true, attempts: 0, questions: [] });
    expect((await learner.get(`/api/admin/tests/${testId}/statistics`)).statusCode).toBe(403);
    expect((await author.get('/api/admin/tests/999999/statistics')).statusCode).toBe(404);

    // Three learners. Question 1 (one right option): right, wrong "Ответ 1", wrong "Ответ 1".
    // Question 5 (two right options): right, one of two (wrong set, no wrong option), wrong "Ответ 2".
    // Question 2 answered by the first only; the third learner's attempt stays open (not counted).
    const takers = [learner, (await clientAs(ctx, 'learner')).client, (await clientAs(ctx, 'learner')).client];
    const opts = (q: Q, text: string) => q.options.filter((o) => o.value === text).map((o) => o.id);
    const plan: { q1: string[]; q5: string[]; q2?: string[]; finish: boolean }[] = [
      { q1: ['Ответ 0'], q5: ['Ответ 0', 'Ответ 1'], q2: ['Ответ 0'], finish: true },
      { q1: ['Ответ 1'], q5: ['Ответ 0'], finish: true },
      { q1: ['Ответ 1'], q5: ['Ответ 2'], finish: true },
    ];
    for (const [n, who] of takers.entries()) {
      const step = plan[n];
      if (!step) continue;
      const attemptId = (await start(who)).json().result.attempt.id as number;
      const questions = (await getTest(who)).test.questions as Q[];
      const byText = (t: string) => questions.find((q) => q.question === t) as Q;
      ctx.clock.advance(10 * SECOND);
      await answer(
        attemptId,
        byText('Вопрос 1').id,
        step.q1.flatMap((t) => opts(byText('Вопрос 1'), t)),
        who,
      );
      ctx.clock.advance(20 * SECOND);
      await answer(
        attemptId,
        byText('Вопрос 5').id,
        step.q5.flatMap((t) => opts(byText('Вопрос 5'), t)),
        who,
      );
      if (step.q2) {
        ctx.clock.advance(30 * SECOND);
        await answer(
          attemptId,
          byText('Вопрос 2').id,
          step.q2.flatMap((t) => opts(byText('Вопрос 2'), t)),
          who,
        );
      }
      await finish(attemptId, who);
    }
    // An author edits question 1 afterwards: history keeps the text it was asked with.
    await ctx.db.kysely
      .updateTable('test_questions')
      .set({ question_text: 'Новый текст' })
      .where('question_text', '=', 'Вопрос 1')
      .execute();
    const open = (await clientAs(ctx, 'learner')).client;
    await start(open);

    const result = await stats();
    expect(result.attempts).toBe(3);
    const of = (text: string) => result.questions.find((q) => q.question_text === text);
    expect(of('Вопрос 1')).toMatchObject({
      asked: 3,
      answered: 3,
      correct_percent: 33,
      top_wrong_option: { text: 'Ответ 1', count: 2 },
      average_seconds: 10,
    });
    expect(of('Вопрос 5')).toMatchObject({
      asked: 3,
      answered: 3,
      correct_percent: 33,
      top_wrong_option: { text: 'Ответ 2', count: 1 },
      average_seconds: 20,
    });
    expect(of('Вопрос 2')).toMatchObject({
      asked: 3,
      answered: 1,
      correct_percent: 100,
      top_wrong_option: null,
      average_seconds: 30,
    });
    expect(of('Вопрос 3')).toMatchObject({ asked: 3, answered: 0, correct_percent: null, average_seconds: null });
    expect(of('Новый текст')).toBeUndefined();
  });

  it('draws the question bank and keeps the draw and the questions of a started attempt whatever the author does', async () => {
    await settings({ has_question_bank: true, question_bank_size: 2, randomize_answers: true });
    const attemptId = (await start()).json().result.attempt.id as number;
    const drawn = (await getTest()).test.questions as Q[];
    expect(drawn).toHaveLength(2);
    const stored = await ctx.db.kysely
      .selectFrom('test_attempts')
      .select(['question_order', 'answer_order'])
      .executeTakeFirstOrThrow();
    expect(stored.question_order).toEqual(drawn.map((q) => q.id));
    expect(Object.keys(stored.answer_order).map(Number).sort()).toEqual(drawn.map((q) => q.id).sort());
    // The author rewrites everything.
    await ctx.db.kysely.updateTable('test_questions').set({ question_text: 'Изменён' }).execute();
    await ctx.db.kysely.updateTable('test_answers').set({ is_correct: false }).execute();
    const after = (await getTest()).test.questions as Q[];
    expect(after.map((q) => q.question)).toEqual(drawn.map((q) => q.question));
    for (const q of drawn) await answer(attemptId, q.id, correct.get(q.question) ?? []);
    expect((await finish(attemptId)).json().result).toMatchObject({ score: 100, correct_answers: 2 });
  });

  it('20 parallel starts make one attempt and 20 parallel finishes one grade', async () => {
    const starts = await Promise.all(Array.from({ length: 20 }, () => start()));
    expect(starts.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(starts.map((r) => r.json().result.attempt.id)).size).toBe(1);
    const attemptId = starts[0]?.json().result.attempt.id as number;
    const finishes = await Promise.all(Array.from({ length: 20 }, () => finish(attemptId)));
    expect(finishes.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(finishes.map((r) => r.json().result.finished_at)).size).toBe(1);
    const rows = await ctx.db.kysely.selectFrom('test_attempts').select(['id', 'finished_at']).execute();
    expect(rows).toHaveLength(1);
  });

  it('takes no answer into a finished attempt, not even a repeat, once its questions have been read', async () => {
    const attemptId = (await start()).json().result.attempt.id as number;
    const [q1, q2] = (await getTest()).test.questions as Q[];
    if (!q1 || !q2) throw new Error('no questions');
    const right = correct.get(q1.question) ?? [];
    expect((await answer(attemptId, q1.id, right)).statusCode).toBe(200);
    // Several answers are judged in their order: the first wrong one decides, and none is kept.
    const other = q1.options.find((o) => !right.includes(o.id))?.id ?? 0;
    const mixed = await learner.post('/api/test-attempts/save-answers', {
      attempt_id: attemptId,
      answers: [
        { test_question_id: q1.id, answer: [other] },
        { test_question_id: q2.id, answer: [999_999] },
      ],
    });
    expect([mixed.statusCode, mixed.json().result.message]).toEqual([422, 'На этот вопрос уже дан другой ответ']);
    expect((await finish(attemptId)).statusCode).toBe(200);
    for (const [q, ids] of [
      [q2, correct.get(q2.question) ?? []],
      [q1, right],
      // Whatever else is wrong with it, an answer to a finished attempt is refused as such.
      [q2, [999_999]],
    ] as const) {
      const late = await answer(attemptId, q.id, ids);
      expect([late.statusCode, late.json().result.message]).toEqual([422, 'Попытка уже завершена']);
    }
    expect(await ctx.db.kysely.selectFrom('attempt_answers').select('question_id').execute()).toEqual([
      { question_id: q1.id },
    ]);
  });

  /**
   * Another transaction of PostgreSQL holding the attempt's row, as a finish (or an answer) does while
   * it runs; `blocked` resolves once a statement waits for it.
   */
  async function holdAttempt(attemptId: number, mode: 'update' | 'share') {
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${ctx.db.schema}` });
    await other.connect();
    await other.query('begin');
    await other.query(`select id from test_attempts where id = $1 for ${mode}`, [attemptId]);
    const holder = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    // Until a statement waits for this transaction (not for any other test's).
    const blocked = async () => {
      for (;;) {
        const waiting = await other.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [
          holder,
        ]);
        if (waiting.rowCount) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return { other, blocked, done: async () => (await other.query('commit'), await other.end()) };
  }

  it.skipIf(!TEST_DATABASE_URL)(
    'an answer sent while the attempt is being finished is refused, never stored ungraded',
    async () => {
      const attemptId = (await start()).json().result.attempt.id as number;
      const [q] = (await getTest()).test.questions as Q[];
      if (!q) throw new Error('no question');
      // A finish holds the attempt and grades it; the answer arriving meanwhile must wait for it.
      const finishing = await holdAttempt(attemptId, 'update');
      const saving = answer(attemptId, q.id, correct.get(q.question) ?? []);
      await finishing.blocked();
      await finishing.other.query(
        'update test_attempts set finished_at = started_at, score = 0, correct_answers = 0, is_passed = false, open_marker = null where id = $1',
        [attemptId],
      );
      await finishing.done();
      const saved = await saving;
      expect([saved.statusCode, saved.json().result.message]).toEqual([422, 'Попытка уже завершена']);
      expect(await ctx.db.kysely.selectFrom('attempt_answers').select('question_id').execute()).toEqual([]);
    },
  );

  it.skipIf(!TEST_DATABASE_URL)('a finish waits for an answer being saved and grades it', async () => {
    const attemptId = (await start()).json().result.attempt.id as number;
    const questions = (await getTest()).test.questions as Q[];
    const [q] = questions;
    if (!q) throw new Error('no question');
    // An answer in flight: its transaction holds the attempt and has written the answer, not committed.
    const saving = await holdAttempt(attemptId, 'share');
    await saving.other.query(
      'insert into attempt_answers (attempt_id, question_id, answer_ids, answered_at) values ($1, $2, $3, now())',
      [attemptId, q.id, JSON.stringify(correct.get(q.question))],
    );
    const finishing = finish(attemptId);
    await saving.blocked();
    await saving.done();
    const graded = (await finishing).json().result;
    expect(graded).toMatchObject({ correct_answers: 1, score: Math.round(100 / questions.length) });
  });

  it('continues an open attempt whatever its questions became; a new one draws them as they are now', async () => {
    const k = ctx.db.kysely;
    const texts = async () =>
      ((await getTest()).test.questions as Q[]).map((q) => q.question).sort((a, b) => a.localeCompare(b));
    const first = (await start()).json().result;
    expect(first.message).toBe('Тест начат!');
    const asked = await texts();
    expect(asked).toHaveLength(5);
    await k
      .updateTable('test_questions')
      .set({ question_text: sql`question_text || ' (новый)'` })
      .execute();
    const ofFirst = await k
      .selectFrom('test_questions')
      .select('id')
      .where('question_text', 'like', 'Вопрос 1 %')
      .executeTakeFirstOrThrow();
    await k.deleteFrom('test_answers').where('question_id', '=', ofFirst.id).execute();
    expect((await start()).json().result).toMatchObject({
      message: 'Продолжаем тест!',
      attempt: { id: first.attempt.id },
    });
    expect(await texts()).toEqual(asked);
    expect((await finish(first.attempt.id)).statusCode).toBe(200);
    const second = (await start()).json().result;
    expect(second).toMatchObject({ message: 'Тест начат!' });
    expect(second.attempt.id).not.toBe(first.attempt.id);
    expect(await texts()).toEqual(['Вопрос 2 (новый)', 'Вопрос 3 (новый)', 'Вопрос 4 (новый)', 'Вопрос 5 (новый)']);
    await k.deleteFrom('test_answers').execute();
    expect((await start()).json().result).toMatchObject({
      message: 'Продолжаем тест!',
      attempt: { id: second.attempt.id },
    });
  });

  it('refuses an empty test and tests the learner may not see', async () => {
    await ctx.db.kysely.deleteFrom('test_answers').execute();
    const empty = await start();
    expect([empty.statusCode, empty.json().result.message]).toEqual([
      422,
      'Тест не заполнен. Обратитесь к администратору для настройки теста.',
    ]);
    await settings({ is_published: false });
    expect((await learner.get(`/api/courses/${course}/tests/${testId}`)).statusCode).toBe(404);
    expect((await start()).statusCode).toBe(404);
    expect(await ctx.db.kysely.selectFrom('test_attempts').select('id').execute()).toEqual([]);
  });
});
