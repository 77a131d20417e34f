import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, dialectName } from '../test/harness.js';
import { introspectionOf } from './introspection.js';
import { versionedValues } from './kept.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';

const AT = '2026-03-01T00:00:00.000Z';

/** Rows the fixtures hang from: a course's module with two tests, each with a question. */
interface Parents {
  tests: [number, number];
  questions: [number, number];
}

/**
 * For each table a kept value reads: a row to insert, and a new value for every column of the table
 * (a column added to the table must be given one here, and so be said to raise the version or not).
 */
const FIXTURES: Record<
  string,
  { row(p: Parents): Record<string, unknown>; change(p: Parents): Record<string, unknown> }
> = {
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
  return { tests, questions: [await question(tests[0]), await question(tests[1])] };
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
          const t = table as 'test_questions';
          let id = -1;
          await raises(
            `an insert into ${table}`,
            async () => {
              const row = await k.insertInto(t).values(fixture.row(p)).returning('id').executeTakeFirstOrThrow();
              id = row.id;
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
                  .where('id', '=', id)
                  .execute(),
              read,
            );
            if (column === 'id') id = to as number;
          }
          await raises(`a delete from ${table}`, () => k.deleteFrom(t).where('id', '=', id).execute(), true);
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
