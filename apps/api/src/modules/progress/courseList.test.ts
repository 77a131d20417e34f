import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { createCourse, createTestApp, dialectName, type TestContext } from '../../test/harness.js';
import { random } from '../../test/random.js';
import { KeptCourseList } from './courseList.js';
import { viewerStates } from './viewer.js';

const AT = '2026-03-01T00:00:00.000Z';

/**
 * The course half of the viewers' lists is kept per process while `course_list_version` holds (raised
 * by triggers made from db/kept.ts, migration 0023). Whatever writes the courses, their categories,
 * totals and groups — here plain statements, as a service, a seeder or another process would — the
 * kept list must equal a fresh read, and nothing of a rolled-back transaction may be kept.
 */
describe(`kept course list (${dialectName})`, () => {
  let ctx: TestContext;
  let uow: UnitOfWork;
  let list: KeptCourseList;
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    list = new KeptCourseList(uow);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** As a view reads it: the version with the viewer's rows, then the list (kept or read). */
  const kept = async () => list.at((await viewerStates(uow.db, 1)).listVersion);
  /** A keeper that keeps nothing yet: the list as it is. */
  const fresh = () => new KeptCourseList(uow).at(-1);
  const expectFresh = async (step: string) => expect((await kept()).courses, step).toEqual((await fresh()).courses);

  it('equals a fresh read after any change of what it shows', async () => {
    const k = ctx.db.kysely;
    const r = random(31);
    const category = async () =>
      (
        await k
          .insertInto('course_categories')
          .values({ name: `Категория ${r.int(1e6)}`, sort_order: r.int(5) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const group = async () =>
      (
        await k
          .insertInto('study_groups')
          .values({ name: `Группа ${r.int(1e6)}` })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const courseIds = async () => (await k.selectFrom('courses').select('id').execute()).map((c) => c.id);
    const categoryIds = async () => (await k.selectFrom('course_categories').select('id').execute()).map((c) => c.id);
    const groupIds = [await group(), await group()];
    const steps: Record<string, () => Promise<unknown>> = {
      'course added': async () => createCourse(ctx.db, `Курс ${r.int(1e6)}`, { is_published: r.chance(0.5) }),
      'course changed': async () => {
        const change = r.pick([
          { title: `Курс ${r.int(1e6)}` },
          { description: `Описание ${r.int(1000)}` },
          { image_path: r.chance(0.5) ? `images/${r.int(1000)}.png` : null },
          { is_published: r.chance(0.5) },
          { accessibility: r.pick(['everyone', 'enrolled_only', 'nobody'] as const) },
          { has_deadline: r.chance(0.5), deadline_value: r.int(60) },
          { deadline_type: r.pick(['from_enrollment', 'from_start'] as const) },
          { deadline_warning_days: r.int(10) },
          { has_recurrence: r.chance(0.5), recurrence_value: 1 + r.int(365) },
          { sort_order: r.int(10) },
          { deleted_at: r.chance(0.5) ? AT : null },
          { category_id: r.chance(0.3) ? null : r.pick(await categoryIds()) },
        ]);
        await k
          .updateTable('courses')
          .set(change)
          .where('id', '=', r.pick(await courseIds()))
          .execute();
      },
      'category added': category,
      'category changed': async () => {
        const change = r.pick([
          { name: `Категория ${r.int(1e6)}` },
          { sort_order: r.int(5) },
          { deleted_at: r.chance(0.5) ? AT : null },
        ]);
        await k
          .updateTable('course_categories')
          .set(change)
          .where('id', '=', r.pick(await categoryIds()))
          .execute();
      },
      'totals written': async () => {
        const values = { learners: r.int(50), lessons_total: r.int(12), tests_total: r.int(4) };
        await k
          .insertInto('course_stats')
          .values({ course_id: r.pick(await courseIds()), ...values })
          .onConflict((oc) => oc.column('course_id').doUpdateSet(values))
          .execute();
      },
      'group assigned': async () =>
        k
          .insertInto('group_courses')
          .values({ group_id: r.pick(groupIds), course_id: r.pick(await courseIds()), assigned_at: AT })
          .onConflict((oc) => oc.doNothing())
          .execute(),
      'group unassigned': async () =>
        k
          .deleteFrom('group_courses')
          .where('course_id', '=', r.pick(await courseIds()))
          .execute(),
    };
    await category();
    for (let i = 0; i < 4; i++) await steps['course added']?.();
    await expectFresh('start');
    for (let step = 0; step < 100; step++) {
      const name = r.pick(Object.keys(steps));
      await steps[name]?.();
      await expectFresh(`step ${step}: ${name}`);
    }
  });

  it('keeps nothing of a rolled-back change, and a transaction reads its own changes', async () => {
    const id = await createCourse(ctx.db, 'До');
    const title = async () => (await kept()).byId.get(id)?.title;
    expect(await title()).toBe('До');
    await expect(
      uow.run(async () => {
        await uow.db.updateTable('courses').set({ title: 'Откатится' }).where('id', '=', id).execute();
        expect(await title()).toBe('Откатится');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await title()).toBe('До');
    // The next committed change takes the version the rolled-back one had reached.
    await ctx.db.kysely.updateTable('courses').set({ description: 'Другое' }).where('id', '=', id).execute();
    expect(await title()).toBe('До');
    await expectFresh('after the next change');
  });

  it('is read once while nothing it shows changes; a write of another column keeps it', async () => {
    const id = await createCourse(ctx.db, 'Курс');
    const first = await kept();
    expect(await kept()).toBe(first);
    await ctx.db.kysely.updateTable('courses').set({ updated_at: AT }).where('id', '=', id).execute();
    expect(await kept()).toBe(first);
    await ctx.db.kysely.updateTable('courses').set({ title: 'Другой' }).where('id', '=', id).execute();
    expect((await kept()).byId.get(id)?.title).toBe('Другой');
  });
});
