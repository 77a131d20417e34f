import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { introspectionOf } from './introspection.js';
import { createTestDb, dialectName } from '../test/harness.js';
import { COLUMNS, type ColumnKind } from './columns.js';
import { migrateToLatest } from './migrate.js';

/** The database type each kind of column has on each database (docs/rules.md §Two databases). */
const TYPES: Record<ColumnKind, { sqlite: string[]; postgres: string[] }> = {
  id: { sqlite: ['integer'], postgres: ['int4'] },
  int: { sqlite: ['integer', 'bigint'], postgres: ['int4', 'int8'] },
  text: { sqlite: ['varchar', 'text'], postgres: ['varchar', 'text'] },
  bool: { sqlite: ['integer'], postgres: ['bool'] },
  time: { sqlite: ['text'], postgres: ['timestamptz'] },
  json: { sqlite: ['text'], postgres: ['jsonb'] },
};

describe(`schema.ts and columns.ts against the real ${dialectName} database`, () => {
  it('list exactly the columns the migrations create, each with its type', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      // SQLite's full-text index (migration 0021) is a virtual table and its shadow tables, not rows.
      const listed =
        db.kind === 'sqlite'
          ? await sql<{ name: string; type: string }>`pragma table_list`.execute(db.kysely)
          : undefined;
      const indexTables = new Set(
        listed?.rows.filter((t) => t.type === 'virtual' || t.type === 'shadow').map((t) => t.name),
      );
      const tables = (await introspectionOf(db).getTables()).filter(
        (t) =>
          !t.name.startsWith('kysely_') &&
          !indexTables.has(t.name) &&
          (db.schema === undefined || t.schema === db.schema),
      );
      const real = Object.fromEntries(
        tables.map((t) => [
          t.name,
          Object.fromEntries(t.columns.map((c) => [c.name, c.dataType.toLowerCase().replace(/\(.*\)$/, '')])),
        ]),
      );
      expect(Object.keys(real).sort()).toEqual(Object.keys(COLUMNS).sort());
      for (const [table, columns] of Object.entries(COLUMNS) as [string, Record<string, ColumnKind>][]) {
        expect(Object.keys(real[table] ?? {}).sort(), table).toEqual(Object.keys(columns).sort());
        for (const [column, kind] of Object.entries(columns)) {
          expect(TYPES[kind][db.kind], `${table}.${column}`).toContain(real[table]?.[column]);
        }
      }
    } finally {
      await drop();
    }
  });

  it('give a column name one kind wherever it appears, so that results convert by name', () => {
    const kinds = new Map<string, ColumnKind>();
    for (const [table, columns] of Object.entries(COLUMNS) as [string, Record<string, ColumnKind>][]) {
      for (const [column, kind] of Object.entries(columns)) {
        const seen = kinds.get(column);
        const convertible = (k: ColumnKind) => k === 'bool' || k === 'json';
        if (seen && (convertible(seen) || convertible(kind)))
          expect(`${table}.${column}: ${kind}`).toBe(`${table}.${column}: ${seen}`);
        kinds.set(column, kind);
      }
    }
  });
});
