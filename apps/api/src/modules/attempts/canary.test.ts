import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * A canary for the rule "learners never receive correct answers before an attempt is finished":
 * while a learner's attempt is open, every GET route the server registers is called as that
 * learner with real identifiers, together with the engine's own POST calls, and every JSON answer
 * is searched for a key that could carry correctness. A new route that leaks fails here without
 * anyone having to remember to test it.
 */
describe(`no correct answer reaches a learner during an attempt (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  let learnerId: number;
  let courseId: number;
  let lessonId: number;
  let testId: number;
  let attemptId: number;
  let questionIds: number[] = [];
  const answers: unknown[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const l = await clientAs(ctx, 'learner');
    learner = l.client;
    learnerId = l.user.id;
    courseId = await createCourse(ctx.db, 'Курс', { is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', courseId).execute();
    const made = await createModuleWith(ctx.db, courseId, { lessons: 1, tests: 1 });
    lessonId = made.lessonIds[0] as number;
    testId = made.testIds[0] as number;
    await ctx.db.kysely
      .updateTable('tests')
      .set({ show_correct_answers: true, has_timer: true, timer_seconds: 600 })
      .where('id', '=', testId)
      .execute();
    for (let q = 0; q < 3; q++) {
      const question = await ctx.db.kysely
        .insertInto('test_questions')
        .values({ test_id: testId, question_text: `Вопрос ${q}`, sort_order: q })
        .returning('id')
        .executeTakeFirstOrThrow();
      questionIds.push(question.id);
      for (let a = 0; a < 3; a++)
        await ctx.db.kysely
          .insertInto('test_answers')
          .values({ question_id: question.id, answer_text: `Ответ ${a}`, is_correct: a === q % 3, sort_order: a })
          .execute();
    }
    const record = (label: string, body: string) => answers.push({ label, json: JSON.parse(body) as unknown });

    const started = await learner.post('/api/test-attempts/start', { course_test_id: testId });
    expect(started.statusCode).toBe(200);
    record('POST /api/test-attempts/start', started.body);
    attemptId = started.json().result.attempt.id as number;
    const view = (await learner.get(`/api/courses/${courseId}/tests/${testId}`)).json().result.test;
    questionIds = (view.questions as { id: number }[]).map((q) => q.id);
    const first = view.questions[0] as { id: number; options: { id: number }[] };
    const saved = await learner.post('/api/test-attempts/save-answers', {
      attempt_id: attemptId,
      answers: [{ test_question_id: first.id, answer: [first.options[0]?.id] }],
    });
    expect(saved.statusCode).toBe(200);
    record('POST /api/test-attempts/save-answers', saved.body);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** The route's path with each parameter replaced by the identifier of this scenario. */
  function concrete(url: string): string | null {
    // Stored files, the API documentation (schemas, no data) and SCORM packages' content (a launch's
    // capability, no session) are not answers about an attempt.
    if (url.includes('*') || url.startsWith('/docs') || url.startsWith('/scorm-content/')) return null;
    const values: Record<string, number | string> = {
      courseId,
      lessonId,
      testId,
      attemptId,
      userId: learnerId,
      id: learnerId,
      // A certificate's number (none is issued here: the calls answer 404 in JSON all the same).
      number: 'C-2222-2222-2222',
    };
    let unknownParam = false;
    const path = url.replace(/:(\w+)/g, (_, name: string) => {
      const value = values[name];
      if (value === undefined) unknownParam = true;
      return String(value);
    });
    return unknownParam ? null : path;
  }

  it('every GET route and the engine calls answer without correctness while the attempt is open', async () => {
    const skipped: string[] = [];
    for (const route of ctx.app.registeredRoutes) {
      if (route.method !== 'GET') continue;
      const path = concrete(route.url);
      if (!path) {
        skipped.push(route.url);
        continue;
      }
      const res = await learner.get(path);
      if (!String(res.headers['content-type'] ?? '').includes('json')) continue;
      answers.push({ label: `GET ${path} (${res.statusCode})`, json: res.json() as unknown });
    }
    // Only wildcard routes (stored files, API documentation) and SCORM content may be left out.
    expect(
      skipped.every((url) => url.includes('*') || url.startsWith('/docs') || url.startsWith('/scorm-content/')),
    ).toBe(true);
    // The scenario really reached the learner's screens: the test with its open attempt's questions.
    expect(answers.some((a) => JSON.stringify(a).includes(`"id":${questionIds[1]}`))).toBe(true);

    const leaks: string[] = [];
    const correctness = /^(is_?correct|correct|is_?right|right_?answers?|correct_?(option|answer)s?(_ids?)?)$/i;
    // docs/product.md §Test taking: a question tells how many options are correct (not which), and an attempt's count of
    // correct answers exists once it is graded: before that it must be empty.
    const allowed = (key: string, value: unknown) =>
      key === 'correctAnswers' ? typeof value === 'number' : key === 'correct_answers' && value === null;
    const visit = (label: string, value: unknown, path: string) => {
      if (Array.isArray(value)) value.forEach((v, i) => visit(label, v, `${path}[${i}]`));
      else if (value && typeof value === 'object')
        for (const [key, v] of Object.entries(value)) {
          if (correctness.test(key) && !allowed(key, v)) leaks.push(`${label}: ${path}.${key} = ${JSON.stringify(v)}`);
          visit(label, v, `${path}.${key}`);
        }
    };
    for (const entry of answers as { label: string; json: unknown }[]) visit(entry.label, entry.json, '$');
    expect(leaks).toEqual([]);
  });

  it('the same scan finds correctness once the attempt is finished (the canary can sing)', async () => {
    const finished = await learner.post('/api/test-attempts/finish', { attempt_id: attemptId });
    expect(finished.statusCode).toBe(200);
    const review = await learner.get(`/api/courses/${courseId}/tests/${testId}/${attemptId}/result`);
    expect(review.statusCode).toBe(200);
    expect(review.body).toContain('"is_correct":true');
  });
});
