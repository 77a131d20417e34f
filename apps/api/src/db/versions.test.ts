import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  TEST_DATABASE_URL,
  type TestContext,
  untilBlockedBy,
} from '../test/harness.js';
import { UnitOfWork } from './unitOfWork.js';
import { compactViewerChanges, versionColumns, versionsOf, type ReadVersions } from './versions.js';

describe(`versions read with the session (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const versions = async (userId: number): Promise<ReadVersions> =>
    versionsOf(
      await ctx.db.kysely
        .selectFrom('users')
        .select((eb) => versionColumns(eb))
        .where('users.id', '=', userId)
        .executeTakeFirstOrThrow(),
    );

  async function company() {
    const [learner, other] = [
      await createUser(ctx.db, { role: 'learner' }),
      await createUser(ctx.db, { role: 'learner' }),
    ];
    const course = await createCourse(ctx.db);
    const { lessonIds } = await createModuleWith(ctx.db, course, { lessons: 2 });
    return { learner: learner.id, other: other.id, course, lessons: lessonIds as [number, number] };
  }

  it("move with each write of the learner's own rows, and with nobody else's", async () => {
    const { learner, other, course, lessons } = await company();
    const k = ctx.db.kysely;
    const writes: [string, () => Promise<unknown>][] = [
      [
        'enrollment',
        () =>
          k
            .insertInto('enrollments')
            .values({
              user_id: learner,
              course_id: course,
              enrolled_at: new Date().toISOString(),
              direct: true,
              by_department: false,
              by_group: false,
            })
            .execute(),
      ],
      [
        'lesson record',
        () => k.insertInto('lesson_progress').values({ user_id: learner, lesson_id: lessons[0] }).execute(),
      ],
      [
        'lesson completed',
        () =>
          k
            .updateTable('lesson_progress')
            .set({ completed_at: new Date().toISOString() })
            .where('user_id', '=', learner)
            .execute(),
      ],
      [
        'learning state',
        () => k.updateTable('learning_states').set({ lessons_completed: 1 }).where('user_id', '=', learner).execute(),
      ],
      ['enrollment deleted', () => k.deleteFrom('enrollments').where('user_id', '=', learner).execute()],
    ];
    await k
      .insertInto('learning_states')
      .values({ user_id: learner, course_id: course, cycle: 1, lessons_completed: 0, tests_completed: 0 })
      .execute();
    for (const [what, write] of writes) {
      const [mine, theirs] = [await versions(learner), await versions(other)];
      await write();
      expect((await versions(learner)).viewer, what).toBeGreaterThan(mine.viewer);
      expect(await versions(other), what).toEqual(theirs);
    }
    // A lesson's name is on its card: the course cards version moves, nobody's own.
    const before = await versions(learner);
    await k.updateTable('lessons').set({ name: 'Другое' }).where('id', '=', lessons[1]).execute();
    const after = await versions(learner);
    expect(after.cards).toBeGreaterThan(before.cards);
    expect(after.viewer).toBe(before.viewer);
    // A rolled-back write moves nothing.
    const uow = new UnitOfWork(k, ctx.db.kind);
    await expect(
      uow.run(async () => {
        await uow.db.deleteFrom('lesson_progress').where('user_id', '=', learner).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versions(learner)).toEqual(after);
  });

  it.skipIf(!TEST_DATABASE_URL)('folding the appended rows keeps every sum', async () => {
    const { learner, other, lessons } = await company();
    for (let i = 0; i < 15; i++)
      await ctx.db.kysely
        .insertInto('lesson_progress')
        .values({ user_id: i % 3 === 0 ? other : learner, lesson_id: lessons[i % 2] ?? 0 })
        .execute();
    const [mine, theirs] = [await versions(learner), await versions(other)];
    expect(await compactViewerChanges(ctx.db.kysely, ctx.db.kind)).toBe(1);
    expect([await versions(learner), await versions(other)]).toEqual([mine, theirs]);
    const rows = await ctx.db.kysely
      .selectFrom('viewer_changes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', learner)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(1);
    expect(await compactViewerChanges(ctx.db.kysely, ctx.db.kind)).toBe(0);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "writers of one learner's rows do not wait for each other on the version, and each moves it",
    async () => {
      const { learner, lessons } = await company();
      const before = await versions(learner);
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = (_pid: number) => {};
      const firstWrote = new Promise<number>((resolve) => (wrote = resolve));
      const one = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const first = one.run(async () => {
        await one.db.insertInto('lesson_progress').values({ user_id: learner, lesson_id: lessons[0] }).execute();
        const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one.db);
        wrote(pid.rows[0]?.pid ?? 0);
        await gate;
      });
      const holder = await firstWrote;
      let committed = false;
      const second = ctx.db.kysely
        .insertInto('lesson_progress')
        .values({ user_id: learner, lesson_id: lessons[1] })
        .execute()
        .then(() => (committed = true));
      // The second commits while the first is open, unless it waits for the first.
      const waited = await untilBlockedBy(ctx.db, holder, () => committed);
      const between = await versions(learner);
      release();
      await first;
      await second;
      expect(waited, 'the second writer waited for the first').toBe(false);
      // Each commit moves the version, whichever commits first.
      expect(between.viewer).toBeGreaterThan(before.viewer);
      expect((await versions(learner)).viewer).toBeGreaterThan(between.viewer);
    },
  );
});
