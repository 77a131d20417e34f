import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import pg from 'pg';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  TEST_DATABASE_URL,
  type TestContext,
} from '../../test/harness.js';
import { random } from '../../test/random.js';
import { TestsRepository } from './tests.js';

/**
 * A start draws from the askable rows the process keeps per test while the test's `content_version`
 * holds (raised by triggers made from db/kept.ts, migration 0022). Whatever writes the questions and
 * options — here plain statements, as the constructor, a seeder or another process would — the kept
 * rows must equal a fresh read, and nothing of a rolled-back transaction may be kept.
 */
describe(`kept askable rows (${dialectName})`, () => {
  let ctx: TestContext;
  let uow: UnitOfWork;
  let tests: TestsRepository;
  let testIds: number[];
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    tests = new TestsRepository(uow);
    const course = await createCourse(ctx.db, 'Курс', { is_published: true });
    testIds = (await createModuleWith(ctx.db, course, { tests: 2 })).testIds;
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** As a start reads them: the version with the test, then the rows (kept or read). */
  async function kept(testId: number) {
    const test = await tests.find(testId);
    if (!test) throw new Error(`test ${testId} not found`);
    return tests.askable(testId, test.content_version);
  }
  /** A repository that keeps nothing yet: the rows as they are. */
  const fresh = (testId: number) => new TestsRepository(uow).askable(testId, -1);

  async function expectFresh(step: string) {
    for (const t of testIds) expect(await kept(t), `${step}: test ${t}`).toEqual(await fresh(t));
  }

  it('equal a fresh read after any change of questions and options', async () => {
    const k = ctx.db.kysely;
    const r = random(14);
    const questions = async () =>
      (await k.selectFrom('test_questions').select(['id', 'test_id']).execute()).map((q) => q.id);
    const answers = async () => (await k.selectFrom('test_answers').select('id').execute()).map((a) => a.id);
    const addAnswer = (questionId: number) =>
      k
        .insertInto('test_answers')
        .values({
          question_id: questionId,
          answer_text: `Ответ ${r.int(1000)}`,
          is_correct: r.chance(0.5),
          sort_order: r.int(4),
        })
        .execute();
    const steps: Record<string, () => Promise<unknown>> = {
      'question added': async () => {
        const q = await k
          .insertInto('test_questions')
          .values({ test_id: r.pick(testIds), question_text: `Вопрос ${r.int(1000)}`, sort_order: r.int(5) })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (let i = r.int(4); i > 0; i--) await addAnswer(q.id);
      },
      'question changed': async () => {
        const ids = await questions();
        if (ids.length === 0) return;
        const change = r.pick([
          { question_text: `Вопрос ${r.int(1000)}` },
          { sort_order: r.int(5) },
          { type: r.pick(['text', 'image'] as const) },
          { deleted_at: r.chance(0.5) ? '2026-03-01T00:00:00.000Z' : null },
          { test_id: r.pick(testIds) },
        ]);
        await k.updateTable('test_questions').set(change).where('id', '=', r.pick(ids)).execute();
      },
      'question deleted': async () => {
        const ids = await questions();
        if (ids.length === 0) return;
        const id = r.pick(ids);
        await k.deleteFrom('test_answers').where('question_id', '=', id).execute();
        await k.deleteFrom('test_questions').where('id', '=', id).execute();
      },
      'option added': async () => {
        const ids = await questions();
        if (ids.length > 0) await addAnswer(r.pick(ids));
      },
      'option changed': async () => {
        const [ids, qs] = [await answers(), await questions()];
        if (ids.length === 0) return;
        const change = r.pick([
          { answer_text: `Ответ ${r.int(1000)}` },
          { is_correct: r.chance(0.5) },
          { sort_order: r.int(4) },
          { image_path: r.chance(0.5) ? `images/${r.int(1000)}.png` : null },
          { question_id: r.pick(qs) },
        ]);
        await k.updateTable('test_answers').set(change).where('id', '=', r.pick(ids)).execute();
      },
      'option deleted': async () => {
        const ids = await answers();
        if (ids.length > 0) await k.deleteFrom('test_answers').where('id', '=', r.pick(ids)).execute();
      },
    };
    for (let i = 0; i < 6; i++) await steps['question added']?.();
    await expectFresh('start');
    for (let step = 0; step < 120; step++) {
      const name = r.pick(Object.keys(steps));
      await steps[name]?.();
      await expectFresh(`step ${step}: ${name}`);
    }
  });

  it('keep nothing of a rolled-back change, and a transaction reads its own changes', async () => {
    const [testId] = testIds as [number];
    const k = ctx.db.kysely;
    const q = await k
      .insertInto('test_questions')
      .values({ test_id: testId, question_text: 'До', sort_order: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await k.insertInto('test_answers').values({ question_id: q.id, answer_text: 'Да', is_correct: true }).execute();
    const text = async () => (await kept(testId)).questions[0]?.question_text;
    expect(await text()).toBe('До');
    await expect(
      uow.run(async () => {
        await uow.db.updateTable('test_questions').set({ question_text: 'Откатится' }).where('id', '=', q.id).execute();
        expect(await text()).toBe('Откатится');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await text()).toBe('До');
    await expectFresh('after the rollback');
    // The next committed change takes the version the rolled-back one had reached.
    await k.updateTable('test_answers').set({ answer_text: 'Нет' }).where('question_id', '=', q.id).execute();
    expect(await text()).toBe('До');
    await expectFresh('after the next change');
  });

  it('follow a question moved to another test and an option moved to another question', async () => {
    const [a, b] = testIds as [number, number];
    const k = ctx.db.kysely;
    const question = async (testId: number, text: string) => {
      const q = await k
        .insertInto('test_questions')
        .values({ test_id: testId, question_text: text, sort_order: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await k.insertInto('test_answers').values({ question_id: q.id, answer_text: text, is_correct: true }).execute();
      return q.id;
    };
    const [first, second] = [await question(a, 'Первый'), await question(b, 'Второй')];
    await expectFresh('before');
    await k.updateTable('test_questions').set({ test_id: b }).where('id', '=', first).execute();
    await expectFresh('question moved');
    await k.updateTable('test_questions').set({ test_id: a }).where('id', '=', first).execute();
    await expectFresh('question moved back');
    await k.updateTable('test_answers').set({ question_id: first }).where('question_id', '=', second).execute();
    await expectFresh('option moved');
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'are made stale by a writer whose search_path does not name the schema (PostgreSQL)',
    async () => {
      const [testId] = testIds as [number];
      const schema = ctx.db.schema;
      if (!schema) throw new Error('the PostgreSQL tests run in a schema of their own');
      const before = (await kept(testId)).questions.length;
      const writer = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await writer.connect();
      try {
        await writer.query('set search_path to public');
        const q = await writer.query(
          `insert into "${schema}".test_questions (test_id, question_text, sort_order, created_at, updated_at)
           values ($1, 'Извне', 0, now(), now()) returning id`,
          [testId],
        );
        await writer.query(
          `insert into "${schema}".test_answers (question_id, answer_text, is_correct, sort_order)
           values ($1, 'Да', true, 0)`,
          [q.rows[0].id],
        );
      } finally {
        await writer.end();
      }
      expect((await kept(testId)).questions.length).toBe(before + 1);
      await expectFresh('after the outside writer');
    },
  );

  it('are read once while the version holds', async () => {
    const [testId] = testIds as [number];
    const k = ctx.db.kysely;
    const q = await k
      .insertInto('test_questions')
      .values({ test_id: testId, question_text: 'Вопрос', sort_order: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await k.insertInto('test_answers').values({ question_id: q.id, answer_text: 'Да', is_correct: true }).execute();
    const first = await kept(testId);
    expect(await kept(testId)).toBe(first);
    expect(Object.isFrozen(first.questions[0])).toBe(true);
    await k.updateTable('tests').set({ name: 'Другое имя' }).where('id', '=', testId).execute();
    expect(await kept(testId), 'the test itself is not what is asked').toBe(first);
    await k
      .updateTable('test_questions')
      .set({ updated_at: '2026-03-01T00:00:00.000Z' })
      .where('id', '=', q.id)
      .execute();
    expect(await kept(testId), 'a column the askable rows do not read (db/kept.ts)').toBe(first);
    await k.updateTable('test_questions').set({ title: 'Заголовок' }).where('id', '=', q.id).execute();
    expect(await kept(testId)).not.toBe(first);
  });
});
