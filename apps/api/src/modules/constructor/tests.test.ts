import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { answerImageField } from '@lms/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { PNG } from '../../test/images.js';

function multipart(fields: Record<string, string>, files: { field: string; name: string; data: Buffer }[]) {
  const boundary = '----lmsQuestionsBoundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe(`test authoring (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let course: number;
  let moduleId: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    author = (await clientAs(ctx, 'author')).client;
    course = await createCourse(ctx.db, 'Курс');
    moduleId = (await author.post('/api/courses/modules', { name: 'Модуль', course_id: course })).json().result.item.id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const saveQuestions = (
    testId: number,
    questions: unknown,
    files: { field: string; name: string; data: Buffer }[] = [],
  ) => {
    const { payload, headers } = multipart({ questions: JSON.stringify(questions) }, files);
    return author.request('POST', `/api/admin/tests/${testId}/questions`, payload, headers);
  };

  it('creates a test with defaults after the module lessons, reads, renames, publishes and deletes it', async () => {
    await author.post('/api/courses/lessons', { module_id: moduleId });
    const created = await author.post('/api/courses/tests', { course_id: course, module_id: moduleId, sort_order: 0 });
    expect(created.statusCode).toBe(201);
    expect(created.json().result).toMatchObject({
      message: 'Тест успешно создан',
      item: {
        name: 'Новый тест',
        type: 'test',
        sort_order: 1,
        max_attempts: 1,
        question_bank_size: 0,
        passing_score: 0,
      },
    });
    const id = created.json().result.item.id as number;
    expect((await author.get(`/api/courses/${course}/tests/${id}`)).json().result.test.id).toBe(id);
    const rename = await author.put(`/api/courses/${course}/tests/${id}`, { name: 'Итоговый' });
    expect(rename.json().result.message).toBe('Название теста успешно сохранено');
    const settings = await author.put(`/api/courses/${course}/tests/${id}`, {
      passing_score: 80,
      has_timer: true,
      timer_seconds: 600,
      has_question_bank: true,
      question_bank_size: 5,
      randomize_questions: true,
    });
    expect(settings.json().result.message).toBe('Настройки теста успешно сохранены');
    // The bank draws its own order: random order stays off.
    expect(settings.json().result.item).toMatchObject({
      passing_score: 80,
      timer_seconds: 600,
      randomize_questions: false,
    });
    const modules = (await author.get(`/api/courses/${course}/modules`)).json().result.items;
    expect(modules[0].tests.map((t: { id: number; name: string }) => [t.id, t.name])).toEqual([[id, 'Итоговый']]);
    const publish = await author.put(`/api/courses/${course}/tests/${id}`, { name: 'Итоговый', is_published: true });
    expect(publish.json().result.message).toBe('Тест опубликован');
    expect((await author.delete(`/api/courses/tests/${id}`)).json().result.message).toBe('Тест успешно удален');
    expect((await author.get(`/api/courses/${course}/tests/${id}`)).statusCode).toBe(404);
  });

  it('refuses settings outside the limits and changes nothing', async () => {
    const id = (await author.post('/api/courses/tests', { course_id: course, module_id: moduleId })).json().result.item
      .id;
    for (const body of [
      { passing_score: 101 },
      { passing_score: -1 },
      { has_attempts_limit: true, max_attempts: 0 },
      { has_attempts_limit: true, max_attempts: 1000 },
      { has_question_bank: true, question_bank_size: 0 },
      { has_timer: true, timer_seconds: 0 },
      { has_retake_interval: true, retake_interval_seconds: 0 },
    ]) {
      const res = await author.put(`/api/courses/${course}/tests/${id}`, body);
      expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 422]);
    }
    // A switch turned on later must meet its value's rule with the stored value.
    const on = await author.put(`/api/courses/${course}/tests/${id}`, { has_timer: true });
    expect(on.statusCode).toBe(422);
    expect((await author.get(`/api/courses/${course}/tests/${id}`)).json().result.test).toMatchObject({
      passing_score: 0,
      has_timer: false,
      max_attempts: 1,
    });
  });

  it('saves questions with image answers as one list; keeps ids; refuses a question without a correct answer', async () => {
    const id = (await author.post('/api/courses/tests', { course_id: course, module_id: moduleId })).json().result.item
      .id;
    const first = await saveQuestions(
      id,
      [
        {
          id: 'q1',
          type: 'text',
          question_text: 'Сколько будет 2+2?',
          sort_order: 0,
          answers: [
            { id: 'a1', answer_text: '4', is_correct: true },
            { id: 'a2', answer_text: '5', is_correct: false },
          ],
        },
        {
          id: 'q2',
          type: 'image',
          question_text: 'Где огнетушитель?',
          sort_order: 1,
          answers: [
            { id: 'a1', answer_text: '', is_correct: true },
            { id: 'a2', answer_text: 'Не здесь', is_correct: false },
          ],
        },
      ],
      [{ field: answerImageField('q2', 'a1'), name: 'fire.png', data: PNG }],
    );
    expect(first.statusCode).toBe(200);
    expect(first.json().result.message).toBe('Вопросы теста успешно сохранены!');
    const saved = first.json().result.questions as {
      id: number;
      answers: { id: number; image_path: string | null; answer_text: string }[];
    }[];
    expect(saved).toHaveLength(2);
    expect(saved[1]?.answers[0]?.image_path).toMatch(/^tests\/[0-9a-f]{32}\.png$/);
    const [q1, q2] = saved as [(typeof saved)[number], (typeof saved)[number]];

    const second = await saveQuestions(id, [
      {
        id: q2.id,
        type: 'image',
        question_text: 'Где огнетушитель?',
        sort_order: 0,
        answers: [
          { id: q2.answers[0]?.id, answer_text: '', is_correct: true, image_path: q2.answers[0]?.image_path },
          { id: 'new', answer_text: 'Нигде', is_correct: false },
        ],
      },
    ]);
    expect(second.statusCode).toBe(200);
    const again = second.json().result.questions;
    expect(again.map((q: { id: number }) => q.id)).toEqual([q2.id]);
    expect(again[0].answers[0]).toMatchObject({ id: q2.answers[0]?.id, image_path: q2.answers[0]?.image_path });
    // The dropped question is kept as deleted (answers of finished attempts may refer to it).
    const row = await ctx.db.kysely
      .selectFrom('test_questions')
      .select('deleted_at')
      .where('id', '=', q1.id)
      .executeTakeFirst();
    expect(row?.deleted_at).not.toBeNull();

    const noCorrect = await saveQuestions(
      id,
      [
        {
          id: 'x',
          type: 'text',
          question_text: 'Без правильного',
          sort_order: 0,
          answers: [{ id: 'a', answer_text: 'нет', is_correct: false }],
        },
      ],
      [{ field: answerImageField('x', 'a'), name: 'x.png', data: PNG }],
    );
    expect(noCorrect.statusCode).toBe(422);
    expect(noCorrect.json().result.message).toBe('Вопрос «Без правильного»: отметьте хотя бы один правильный ответ');
    const tooLong = await saveQuestions(id, [
      {
        id: 'y',
        type: 'text',
        question_text: 'x'.repeat(256),
        sort_order: 0,
        answers: [{ id: 'a', answer_text: 'a', is_correct: true }],
      },
    ]);
    expect(tooLong.statusCode).toBe(422);
    const fake = await saveQuestions(
      id,
      [
        {
          id: 'z',
          type: 'image',
          question_text: 'Q',
          sort_order: 0,
          answers: [{ id: 'a', answer_text: '', is_correct: true }],
        },
      ],
      [{ field: answerImageField('z', 'a'), name: 'virus.png', data: Buffer.from('MZ not an image at all') }],
    );
    expect(fake.statusCode).toBe(422);
    // Nothing of the refused saves stays: one image in storage, the list as it was.
    expect(readdirSync(join(ctx.config.dataDir, 'storage', 'tests'))).toHaveLength(1);
    expect((await author.get(`/api/admin/tests/${id}/questions`)).json().result.questions).toHaveLength(1);
  });
});
