import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { answerImageField } from '@lms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { PNG } from '../../test/images.js';
import { storageCleanup } from '../../test/storageCleanup.js';
import { multipart } from '../../test/multipart.js';

/**
 * An option's image as an attempt asked it is a record of that attempt: replaced by the author, it
 * is still shown to the learner who was asked it, and the cleanup never removes it.
 */
describe(`images of attempts' snapshots (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let learner: Client;
  let other: Client;
  let testId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    ctx.clock.set(new Date());
    author = (await clientAs(ctx, 'author')).client;
    learner = (await clientAs(ctx, 'learner')).client;
    other = (await clientAs(ctx, 'learner')).client;
    const course = await createCourse(ctx.db, 'Пожарная безопасность', { is_published: true });
    await ctx.db.kysely.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', course).execute();
    testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
  });
  afterAll(async () => {
    await ctx.close();
  });

  type Saved = { id: number; answers: { id: number; image_path: string | null }[] }[];
  const save = async (questions: unknown, image: { question: string | number; answer: string | number }) => {
    const { payload, headers } = multipart(
      { questions: JSON.stringify(questions) },
      { field: answerImageField(image.question, image.answer), name: 'схема.png', type: 'image/png', data: PNG },
    );
    const res = await author.request('POST', `/api/admin/tests/${testId}/questions`, payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.questions as Saved;
  };

  it('keeps the replaced image for the learner who was asked it, and from the cleanup', async () => {
    const [first] = await save(
      [
        {
          id: 'q',
          type: 'image',
          question_text: 'Где огнетушитель?',
          sort_order: 0,
          answers: [
            { id: 'a', answer_text: '', is_correct: true },
            { id: 'b', answer_text: 'Не здесь', is_correct: false },
          ],
        },
      ],
      { question: 'q', answer: 'a' },
    );
    const question = first as Saved[number];
    const asked = question.answers[0]?.image_path as string;
    const started = await learner.post('/api/test-attempts/start', { course_test_id: testId });
    expect(started.statusCode, started.body).toBe(200);

    // The author replaces the image: the option now names another file.
    const [again] = await save(
      [
        {
          id: question.id,
          type: 'image',
          question_text: 'Где огнетушитель?',
          sort_order: 0,
          answers: [
            { id: question.answers[0]?.id, answer_text: '', is_correct: true },
            { id: question.answers[1]?.id, answer_text: 'Не здесь', is_correct: false },
          ],
        },
      ],
      { question: question.id, answer: question.answers[0]?.id as number },
    );
    expect(again?.answers[0]?.image_path).not.toBe(asked);

    expect((await learner.get(`/storage/${asked}`)).statusCode).toBe(200);
    // Another learner was never asked it: it is as if it did not exist.
    expect((await other.get(`/storage/${asked}`)).statusCode).toBe(404);

    const cleanup = storageCleanup(ctx);
    ctx.clock.advance(2 * DAY);
    expect((await cleanup.run({ dryRun: false })).unreferenced).toBe(0);
    expect(existsSync(join(ctx.config.dataDir, 'storage', asked))).toBe(true);
  });
});
