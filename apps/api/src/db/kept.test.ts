import { existsSync } from 'node:fs';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { askableRows } from '../modules/courses/tests.js';
import { courseListRows, liveCategoryRows } from '../modules/progress/courseList.js';
import { columnsRead } from '../test/columnsRead.js';
import { createTestDb, dialectName } from '../test/harness.js';
import type { Db } from './connect.js';
import { createVersionTriggers, dropVersionTriggers, KEPT, versionedValues, versionTriggerNames } from './kept.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';

/**
 * The cached queries of each kept value that a version drops, by its name in `KEPT`. A value declared
 * without one here fails below: its reads would be unchecked.
 */
const CACHED_QUERIES: Record<string, (db: Kysely<Database>) => CompiledQuery[]> = {
  askable: (db) => [askableRows.bind(db, { testId: 1 })],
  courseList: (db) => [courseListRows.bind(db, {}), liveCategoryRows.bind(db, {})],
};

/** What a version's own read reads: the counter's row, read with the value to say which version it is. */
const VERSION_READ = ['counters.name', 'counters.value'];

const declared = (reads: Record<string, readonly string[] | undefined>) =>
  Object.entries(reads).flatMap(([table, columns]) => (columns ?? []).map((c) => `${table}.${c}`));

describe('kept values (db/kept.ts)', () => {
  it('each cached query reads exactly the tables and columns its declaration names', async () => {
    const { db, drop } = await createTestDb();
    try {
      for (const { name, version } of versionedValues()) {
        const query = CACHED_QUERIES[name];
        expect(query, `${name}: add its cached query to CACHED_QUERIES`).toBeDefined();
        if (!query) continue;
        const read = [...new Set(query(db.kysely).flatMap((q) => columnsRead(q.query)))];
        const named = [...declared(version.reads), ...VERSION_READ];
        expect(
          read.filter((c) => !named.includes(c)),
          `${name} reads columns db/kept.ts does not name: a write of them would not raise ${version.counter}`,
        ).toEqual([]);
        expect(
          named.filter((c) => !read.includes(c)),
          `db/kept.ts names columns ${name} does not read: writing them raises ${version.counter} for nothing`,
        ).toEqual([]);
      }
    } finally {
      await drop();
    }
  });

  it('every owner is a file of the server', () => {
    for (const [name, value] of Object.entries(KEPT))
      expect(existsSync(new URL(`../${value.owner}`, import.meta.url)), `${name}: ${value.owner}`).toBe(true);
  });

  it('sees through aliases and subqueries, and fails on what hides its reads', async () => {
    const { db, drop } = await createTestDb();
    try {
      const k = db.kysely;
      const read = columnsRead(
        k
          .selectFrom('test_questions as q')
          .innerJoin('tests as t', 't.id', 'q.test_id')
          .select(['q.title as heading', 't.name'])
          .select((eb) =>
            eb
              .selectFrom('test_answers')
              .select('answer_text')
              .whereRef('question_id', '=', 'q.id')
              .limit(1)
              .as('first'),
          )
          .select((eb) =>
            eb
              .selectFrom('test_answers as a')
              .select(eb.fn.countAll().as('n'))
              .whereRef('a.question_id', '=', 'q.id')
              .as('options'),
          )
          .where('t.is_published', '=', true)
          .where(sql<boolean>`${sql.ref('t.deleted_at')} is null`)
          .orderBy('q.sort_order')
          .compile().query,
      );
      expect(read).toEqual([
        'test_answers.answer_text',
        'test_answers.question_id',
        'test_questions.id',
        'test_questions.sort_order',
        'test_questions.test_id',
        'test_questions.title',
        'tests.deleted_at',
        'tests.id',
        'tests.is_published',
        'tests.name',
      ]);
      expect(() => columnsRead(k.selectFrom('tests').selectAll().compile().query)).toThrow('every column');
      expect(() =>
        columnsRead(
          k
            .selectFrom('tests')
            .select(sql<string>`name`.as('n'))
            .compile().query,
        ),
      ).toThrow('raw SQL');
      const unqualified = k.selectFrom('tests').innerJoin('modules', 'modules.id', 'tests.module_id').select('name');
      expect(() => columnsRead(unqualified.compile().query)).toThrow('Unqualified');
    } finally {
      await drop();
    }
  });
});

/** Every trigger of the database (its schema, on PostgreSQL), with what it is, as the catalogue says it. */
async function triggers(db: Db): Promise<string[]> {
  if (db.kind === 'sqlite') {
    const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'trigger' order by name`.execute(db.kysely);
    return rows.map((r) => `${r.name}: ${r.sql.replace(/\s+/g, ' ')}`);
  }
  const { rows } = await sql<{ name: string; def: string; fn: string }>`select t.tgname as name,
      pg_get_triggerdef(t.oid) as def, pg_get_functiondef(t.tgfoid) as fn
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not t.tgisinternal order by t.tgname`.execute(db.kysely);
  return rows.map((r) => `${r.name}: ${r.def}; ${r.fn.replace(/\s+/g, ' ')}`);
}

const ADD_A_MIGRATION =
  'the triggers the migrations made are not the ones db/kept.ts declares: add a migration that drops the old ' +
  'ones (dropVersionTriggers with the list as it was) and creates the new (createVersionTriggers)';

describe(`version triggers (${dialectName})`, () => {
  it('are the ones the declaration makes, and no trigger raises a version it does not declare', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const migrated = await triggers(db);
      const names = versionedValues().flatMap(({ version }) => versionTriggerNames(db.kind, version));
      const versionTriggers = migrated.map((t) => t.slice(0, t.indexOf(':'))).filter((n) => n.includes('_version'));
      expect(versionTriggers.sort(), ADD_A_MIGRATION).toEqual(names.map((n) => n.name).sort());
      // Made again from the list as it is now, they must be what the migrations made.
      for (const { version } of versionedValues()) {
        await dropVersionTriggers(db.kysely, db.kind, version);
        await createVersionTriggers(db.kysely, db.kind, version);
      }
      expect(await triggers(db), ADD_A_MIGRATION).toEqual(migrated);
    } finally {
      await drop();
    }
  });
});
