import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { random } from '../../test/random.js';
import {
  createCourse,
  createTestApp,
  createUser,
  dialectName,
  TEST_DATABASE_URL,
  type TestContext,
  untilBlockedBy,
} from '../../test/harness.js';
import { isVisible } from './engine.js';
import { learningStatesOver } from './standalone.js';
import { viewerCourseRows } from './viewer.js';

/**
 * The catalogue and the home list read the process's kept course rows with the viewer's own rows put
 * in their places (progress/keptCourses.ts). Whatever writes the tables those rows come from — here
 * plain statements, as another process or a seeder would — the lists must equal the one-statement
 * read of every row (viewer.ts), and nothing of a rolled-back transaction may be kept.
 */
describe(`kept course rows (${dialectName})`, () => {
  let ctx: TestContext;
  let uow: UnitOfWork;
  beforeEach(async () => {
    ctx = await createTestApp();
    uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const states = () => learningStatesOver(uow, ctx.clock).reads;

  async function expectFresh(step: string, users: readonly number[], kept = states()) {
    for (const u of users) {
      const fresh = await viewerCourseRows(ctx.db.kysely, u);
      expect(
        (await kept.viewerCourses(u)).map((v) => v.course),
        `${step}: viewer ${u}`,
      ).toEqual(fresh);
      const visible = (await kept.viewerCourses(u, { visibleOnly: true })).map((v) => v.course.id);
      expect(visible, `${step}: visible to ${u}`).toEqual(
        fresh.filter((r) => isVisible(r, r.enrolled_at !== null)).map((r) => r.id),
      );
    }
  }

  it('equal a fresh read after any change of courses, categories, counts, group links and enrollments', async () => {
    const k = ctx.db.kysely;
    const at = '2026-03-01T00:00:00.000Z';
    const users = [
      (await createUser(ctx.db, { role: 'learner' })).id,
      (await createUser(ctx.db, { role: 'learner' })).id,
      (await createUser(ctx.db, { role: 'admin' })).id,
    ];
    const group = await k
      .insertInto('study_groups')
      .values({ name: 'Группа', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const categories: number[] = [];
    const courses: number[] = [];
    const kept = states();
    const rnd = random(20261124);
    for (let step = 0; step < 120; step++) {
      const course = rnd.pick(courses);
      const category = rnd.pick(categories);
      const user = rnd.pick(users);
      const ops: [string, () => Promise<unknown>][] = [
        [
          'new category',
          async () => {
            const row = await k
              .insertInto('course_categories')
              .values({ name: `Категория ${step}`, sort_order: rnd.int(5), created_at: at, updated_at: at })
              .returning('id')
              .executeTakeFirstOrThrow();
            categories.push(row.id);
          },
        ],
        [
          'new course',
          async () =>
            courses.push(
              await createCourse(ctx.db, `Курс ${step}`, {
                category_id: rnd.chance(0.7) ? (category ?? null) : null,
                is_published: rnd.chance(0.7),
              }),
            ),
        ],
        [
          'course changed',
          () =>
            k
              .updateTable('courses')
              .set({
                title: `Курс ${step}`,
                description: `Описание ${step}`,
                image_path: rnd.chance(0.5) ? `courses/${step}.png` : null,
                is_published: rnd.chance(0.6),
                accessibility: rnd.pick(['everyone', 'enrolled_only'] as const),
                has_deadline: rnd.chance(0.5),
                deadline_value: 1 + rnd.int(30),
                sort_order: rnd.int(10),
                category_id: rnd.chance(0.8) ? (category ?? null) : null,
              })
              .where('id', '=', course ?? 0)
              .execute(),
        ],
        [
          'course deleted',
          () =>
            k
              .updateTable('courses')
              .set({ deleted_at: at })
              .where('id', '=', course ?? 0)
              .execute(),
        ],
        [
          'category changed',
          () =>
            k
              .updateTable('course_categories')
              .set({ name: `Категория ${step}`, sort_order: rnd.int(5) })
              .where('id', '=', category ?? 0)
              .execute(),
        ],
        [
          'category deleted',
          () =>
            k
              .updateTable('course_categories')
              .set({ deleted_at: at })
              .where('id', '=', category ?? 0)
              .execute(),
        ],
        [
          'counts changed',
          () =>
            k
              .insertInto('course_stats')
              .values({ course_id: course ?? 0, learners: rnd.int(9), lessons_total: rnd.int(9), tests_total: 1 })
              .onConflict((oc) => oc.column('course_id').doUpdateSet({ learners: rnd.int(9), tests_total: rnd.int(4) }))
              .execute(),
        ],
        [
          'group link',
          async () => {
            if (course === undefined) return;
            const linked = await k
              .deleteFrom('group_courses')
              .where('group_id', '=', group.id)
              .where('course_id', '=', course)
              .executeTakeFirst();
            if (Number(linked.numDeletedRows) === 0)
              await k
                .insertInto('group_courses')
                .values({ group_id: group.id, course_id: course, assigned_at: at })
                .execute();
          },
        ],
        [
          'enrollment',
          async () => {
            if (course === undefined) return;
            const gone = await k
              .deleteFrom('enrollments')
              .where('user_id', '=', user)
              .where('course_id', '=', course)
              .executeTakeFirst();
            if (Number(gone.numDeletedRows) === 0)
              await k
                .insertInto('enrollments')
                .values({
                  user_id: user,
                  course_id: course,
                  enrolled_at: at,
                  direct: true,
                  by_department: false,
                  by_group: false,
                })
                .execute();
          },
        ],
      ];
      const [name, op] = courses.length === 0 ? ops[1]! : rnd.pick(ops);
      await op();
      await expectFresh(`step ${step}: ${name}`, users, kept);
    }
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'writers of different courses do not wait for each other on the version, which each transaction raises once',
    async () => {
      const [a, b] = [await createCourse(ctx.db), await createCourse(ctx.db)];
      const version = async () =>
        (
          await ctx.db.kysely
            .selectFrom('counters')
            .select('value')
            .where('name', '=', 'course_cards_version')
            .executeTakeFirstOrThrow()
        ).value;
      const count = (db: Kysely<Database>, course: number, learners: number) =>
        db
          .insertInto('course_stats')
          .values({ course_id: course, learners, lessons_total: 0, tests_total: 0 })
          .onConflict((oc) => oc.column('course_id').doUpdateSet({ learners }))
          .execute();
      const before = await version();
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = (_pid: number) => {};
      const firstWrote = new Promise<number>((resolve) => (wrote = resolve));
      const one = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      const first = one.run(async () => {
        await count(one.db, a, 1);
        await one.db.updateTable('courses').set({ title: 'Первый' }).where('id', 'in', [a, b]).execute();
        const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one.db);
        wrote(pid.rows[0]?.pid ?? 0);
        await gate;
      });
      const holder = await firstWrote;
      const two = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      let committed = false;
      const second = two.run(() => count(two.db, b, 2)).then(() => (committed = true));
      // The second commits while the first is open, unless it waits for the first.
      const waited = await untilBlockedBy(ctx.db, holder, () => committed);
      release();
      await first;
      await second;
      expect(waited, 'the second writer waited for the first').toBe(false);
      expect(await version()).toBe(before + 2);
      await expectFresh('after both', [(await createUser(ctx.db, { role: 'learner' })).id]);
    },
  );

  it('keep nothing of a rolled-back change, and a transaction reads its own changes', async () => {
    const [user, course] = [(await createUser(ctx.db, { role: 'learner' })).id, await createCourse(ctx.db, 'До')];
    const kept = states();
    await expectFresh('before', [user], kept);
    const title = async () => (await kept.viewerCourses(user)).find((v) => v.course.id === course)?.course.title;
    await expect(
      uow.run(async () => {
        await uow.db.updateTable('courses').set({ title: 'Откатится' }).where('id', '=', course).execute();
        expect(await title()).toBe('Откатится');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await title()).toBe('До');
    await expectFresh('after the rollback', [user], kept);
    // The next committed change takes the version the rolled-back one had reached.
    await ctx.db.kysely.updateTable('courses').set({ description: 'После' }).where('id', '=', course).execute();
    expect(await title()).toBe('До');
    await expectFresh('after the next change', [user], kept);
  });
});
