import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  queriesDuring,
  recordAttempt,
  type TestContext,
} from '../../test/harness.js';
import { AttemptsRepository } from './repository.js';

describe(`attempts repository (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('lists attempts kept from before snapshots existed, and gives each snapshot as stored however often read', async () => {
    const course = await createCourse(ctx.db);
    const { testIds } = await createModuleWith(ctx.db, course, { tests: 1 });
    const testId = testIds[0] as number;
    const user = await createUser(ctx.db, { role: 'learner' });
    // Rows without a snapshot (written before migration 0003 kept them).
    await recordAttempt(ctx.db, user.id, testId, 1, '2026-01-01T10:00:00.000Z', false);
    await recordAttempt(ctx.db, user.id, testId, 2, '2026-01-02T10:00:00.000Z', true);
    const snapshot = { passing_score: 50, questions: [] };
    const kept = await ctx.db.kysely
      .insertInto('test_attempts')
      .values({
        user_id: user.id,
        test_id: testId,
        attempt_number: 3,
        started_at: '2026-01-03T10:00:00.000Z',
        open_marker: 1,
        question_order: '[]',
        answer_order: '{}',
        snapshot: JSON.stringify(snapshot),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const repo = new AttemptsRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind));
    for (let read = 0; read < 2; read++) {
      const list = await repo.ofUser(user.id, testId);
      expect(list.map((a) => [a.attempt_number, a.snapshot])).toEqual([
        [1, null],
        [2, null],
        [3, snapshot],
      ]);
      expect((await repo.find(kept.id))?.snapshot).toEqual(snapshot);
    }
    expect(Object.isFrozen((await repo.find(kept.id))?.snapshot)).toBe(true);
  });

  it('never answers by id alone with an attempt a rolled-back transaction wrote, whose id may be given again', async () => {
    const course = await createCourse(ctx.db);
    const testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
    const [one, two] = [await createUser(ctx.db, { role: 'learner' }), await createUser(ctx.db, { role: 'learner' })];
    const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const repo = new AttemptsRepository(uow);
    const write = (userId: number, passing: number) =>
      repo.insert(
        {
          user_id: userId,
          test_id: testId,
          attempt_number: 1,
          started_at: '2026-01-03T10:00:00.000Z',
          expires_at: null,
          question_order: [],
          answer_order: {},
          snapshot: { passing_score: passing, questions: [] },
        },
        '2026-01-03T10:00:00.000Z',
      );
    let undone = 0;
    await uow
      .run(async () => {
        undone = await write(one.id, 10);
        // Read inside the transaction that is then rolled back.
        expect((await repo.find(undone))?.snapshot.passing_score).toBe(10);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await repo.forAnswer(undone)).toBeUndefined();
    // The same learner starting again in the same millisecond: a committed read gets the new attempt.
    const again = await write(one.id, 30);
    expect((await repo.find(again))?.snapshot.passing_score).toBe(30);
    expect((await repo.forAnswer(again))?.snapshot.passing_score).toBe(30);
    await ctx.db.kysely.deleteFrom('test_attempts').where('id', '=', again).execute();
    const id = await write(two.id, 20);
    const kept = await repo.forAnswer(id);
    expect([kept?.user_id, kept?.snapshot.passing_score]).toEqual([two.id, 20]);
    // Read outside a transaction: committed, so the facts now answer by id alone.
    expect((await repo.forAnswer(id))?.finished_at).toBeUndefined();
  });

  it("keeps a start's snapshot once the start commits: the learner's next calls do not read it back", async () => {
    const course = await createCourse(ctx.db);
    const testId = (await createModuleWith(ctx.db, course, { tests: 1 })).testIds[0] as number;
    const user = await createUser(ctx.db, { role: 'learner' });
    const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const repo = new AttemptsRepository(uow);
    const snapshot = { passing_score: 70, questions: [] };
    let id = 0;
    await uow.run(async () => {
      id = await repo.insert(
        {
          user_id: user.id,
          test_id: testId,
          attempt_number: 1,
          started_at: '2026-01-03T10:00:00.000Z',
          expires_at: '2026-01-03T10:10:00.000Z',
          question_order: [],
          answer_order: {},
          snapshot,
        },
        '2026-01-03T10:00:00.000Z',
      );
      // Not yet committed: an answer by id alone would trust an attempt that may still be undone.
      expect(await queriesDuring(() => repo.forAnswer(id))).not.toEqual([]);
    });
    expect(await queriesDuring(() => repo.forAnswer(id))).toEqual([]);
    expect((await repo.forAnswer(id))?.snapshot).toEqual(snapshot);
    // The row itself is read (it may be finished by now), its snapshot is not.
    const read = await queriesDuring(async () => expect((await repo.find(id))?.snapshot).toEqual(snapshot));
    expect(read).toHaveLength(1);
  });
});
