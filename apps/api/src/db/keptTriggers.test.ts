import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, dialectName } from '../test/harness.js';
import { introspectionOf } from './introspection.js';
import { versionedValues } from './kept.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';

const AT = '2026-03-01T00:00:00.000Z';

/**
 * Rows the fixtures hang from: two courses (the first with a module of two tests, each with a
 * question), a category and two study groups.
 */
interface Parents {
  courses: [number, number];
  tests: [number, number];
  questions: [number, number];
  category: number;
  groups: [number, number];
}

/**
 * For each table a kept value reads: a row to insert, and a new value for every column of the table
 * (a column added to the table must be given one here, and so be said to raise the version or not);
 * `key`: the columns that find the row (default `id`, returned by the insert).
 */
const FIXTURES: Record<
  string,
  { key?: string[]; row(p: Parents): Record<string, unknown>; change(p: Parents): Record<string, unknown> }
> = {
  courses: {
    row: () => ({ title: 'Курс' }),
    change: (p) => ({
      category_id: p.category,
      title: 'Другой курс',
      description: 'Описание',
      image_path: 'images/c.png',
      is_published: true,
      has_deadline: true,
      deadline_type: 'from_start',
      deadline_value: 10,
      deadline_unit: 'weeks',
      deadline_warning_days: 2,
      has_recurrence: true,
      recurrence_value: 30,
      recurrence_unit: 'weeks',
      accessibility: 'everyone',
      sort_order: 9,
      deleted_at: AT,
      created_at: AT,
      updated_at: AT,
      id: 100_000,
    }),
  },
  course_categories: {
    row: () => ({ name: 'Категория для проверки' }),
    change: () => ({
      name: 'Другая категория',
      sort_order: 4,
      deleted_at: AT,
      created_at: AT,
      updated_at: AT,
      id: 100_000,
    }),
  },
  course_stats: {
    key: ['course_id'],
    row: (p) => ({ course_id: p.courses[0], learners: 0, lessons_total: 0, tests_total: 0 }),
    change: (p) => ({ learners: 3, lessons_total: 5, tests_total: 1, course_id: p.courses[1] }),
  },
  group_courses: {
    key: ['group_id', 'course_id'],
    row: (p) => ({ group_id: p.groups[0], course_id: p.courses[0], assigned_at: AT }),
    change: (p) => ({ assigned_at: '2026-03-02T00:00:00.000Z', group_id: p.groups[1], course_id: p.courses[1] }),
  },
  test_questions: {
    row: (p) => ({ test_id: p.tests[0], question_text: 'Вопрос' }),
    change: (p) => ({
      test_id: p.tests[1],
      title: 'Заголовок',
      type: 'image',
      question_text: 'Другой вопрос',
      sort_order: 7,
      deleted_at: AT,
      created_at: AT,
      updated_at: AT,
      id: 100_000,
    }),
  },
  test_answers: {
    row: (p) => ({ question_id: p.questions[0], answer_text: 'Ответ' }),
    change: (p) => ({
      question_id: p.questions[1],
      answer_text: 'Другой ответ',
      is_correct: true,
      image_path: 'images/a.png',
      sort_order: 3,
      created_at: AT,
      updated_at: AT,
      id: 100_000,
    }),
  },
};

async function parents(k: Kysely<Database>): Promise<Parents> {
  const course = await k.insertInto('courses').values({ title: 'К' }).returning('id').executeTakeFirstOrThrow();
  const other = await k.insertInto('courses').values({ title: 'К2' }).returning('id').executeTakeFirstOrThrow();
  const category = await k
    .insertInto('course_categories')
    .values({ name: 'Кат' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const group = async (name: string) =>
    (await k.insertInto('study_groups').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  const mod = await k
    .insertInto('modules')
    .values({ course_id: course.id, name: 'М' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const test = async () =>
    (await k.insertInto('tests').values({ module_id: mod.id, name: 'Т' }).returning('id').executeTakeFirstOrThrow()).id;
  const tests: [number, number] = [await test(), await test()];
  const question = async (testId: number) =>
    (
      await k
        .insertInto('test_questions')
        .values({ test_id: testId, question_text: 'В' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  return {
    courses: [course.id, other.id],
    tests,
    questions: [await question(tests[0]), await question(tests[1])],
    category: category.id,
    groups: [await group('Г1'), await group('Г2')],
  };
}

/**
 * Each statement below commits on its own: on PostgreSQL the version is raised at commit, so what a
 * statement did to it is seen by the next.
 */
describe(`version triggers (${dialectName}): what raises a version`, () => {
  it('an insert, a delete and an update of a column the kept value reads; no update of another column', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const k = db.kysely;
      const tables = await introspectionOf(db).getTables();
      const p = await parents(k);
      for (const { name, version } of versionedValues()) {
        const value = async () =>
          (await k.selectFrom('counters').select('value').where('name', '=', version.counter).executeTakeFirstOrThrow())
            .value;
        const raises = async (what: string, write: () => Promise<unknown>, expected: boolean) => {
          const before = await value();
          await write();
          expect(await value(), `${name}: ${what} ${expected ? 'raises' : 'leaves'} ${version.counter}`).toBe(
            expected ? before + 1 : before,
          );
        };
        for (const [table, reads] of Object.entries(version.reads)) {
          const fixture = FIXTURES[table];
          expect(fixture, `${table}: add a fixture to FIXTURES`).toBeDefined();
          if (!fixture) continue;
          const change = fixture.change(p);
          const columns = tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? [];
          expect(Object.keys(change).sort(), `${table}: FIXTURES gives a new value for every column`).toEqual(
            columns.sort(),
          );
          // The tables differ; the test writes each by name and finds its row by `key`.
          const t = table as 'test_questions';
          const keyColumns = fixture.key ?? ['id'];
          let at: Record<string, unknown> = {};
          const row = () => {
            const where = Object.entries(at);
            return (eb: ExpressionBuilder<Database, 'test_questions'>) =>
              eb.and(where.map(([c, v]) => eb(c as 'id', '=', v as number)));
          };
          await raises(
            `an insert into ${table}`,
            async () => {
              const values = fixture.row(p);
              if (fixture.key) {
                await k.insertInto(t).values(values).execute();
                at = Object.fromEntries(keyColumns.map((c) => [c, values[c]]));
              } else at = { id: (await k.insertInto(t).values(values).returning('id').executeTakeFirstOrThrow()).id };
            },
            true,
          );
          for (const [column, to] of Object.entries(change)) {
            const read = (reads ?? []).includes(column as 'id');
            await raises(
              `an update of ${table}.${column}`,
              () =>
                k
                  .updateTable(t)
                  .set({ [column]: to })
                  .where(row())
                  .execute(),
              read,
            );
            if (keyColumns.includes(column)) at = { ...at, [column]: to };
          }
          await raises(`a delete from ${table}`, () => k.deleteFrom(t).where(row()).execute(), true);
        }
        // Last: a truncate takes the rows the fixtures hang from (and, by cascade, what refers to them).
        if (db.kind === 'postgres')
          for (const table of Object.keys(version.reads))
            await raises(`a truncate of ${table}`, () => sql`truncate ${sql.table(table)} cascade`.execute(k), true);
      }
    } finally {
      await drop();
    }
  });
});
