import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { keepNewest } from '../lib/kept.js';

/** Enough for every distinct statement the server makes (queries are built from a fixed set of shapes). */
const DEFAULT_CAPACITY = 1000;
const SCHEMA_CHANGE = /^\s*(alter|create|drop)\b/i;

/**
 * better-sqlite3 behind Kysely's SQLite driver, with its prepared statements kept by SQL text:
 * the driver prepares every query anew, which cost about an eighth of the server's CPU under load.
 * Kysely runs one query at a time on its single connection, so a statement is never used twice at
 * once. The least recently used statement is dropped when the cache is full (queries with
 * `in (…)` lists of varying length make distinct texts).
 */
/** How a column's raw value becomes the application's (by the column's name), if it needs to. */
export type ColumnConversion = (name: string) => ((value: unknown) => unknown) | undefined;

/** Marks a list of rows whose values the reader already converted (see `ColumnConversion`). */
export const ROWS_CONVERTED = Symbol('rows converted');

export function withStatementCache(
  database: SqliteDatabase,
  capacity = DEFAULT_CAPACITY,
  convert?: ColumnConversion,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      return database.close();
    },
    prepare(sql: string): SqliteStatement {
      // A schema change may give a cached statement other columns than its row builder knows.
      if (SCHEMA_CHANGE.test(sql)) statements.clear();
      const cached = statements.get(sql);
      if (cached) {
        // Re-inserting moves it to the end: Map iteration order is the recency order.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = withRowBuilder(database.prepare(sql), convert);
      keepNewest(statements, sql, statement, capacity);
      return statement;
    },
  };
}

/** better-sqlite3's statement, as far as rows in arrays go. */
interface ArrayRowStatement extends SqliteStatement {
  raw(toggle: boolean): ArrayRowStatement;
  columns(): { name: string }[];
}

const hasArrayRows = (s: SqliteStatement): s is ArrayRowStatement =>
  typeof (s as Partial<ArrayRowStatement>).raw === 'function' &&
  typeof (s as Partial<ArrayRowStatement>).columns === 'function';

/**
 * Rows read as arrays and made into objects by a function compiled for the statement's columns:
 * better-sqlite3 builds each row object property by property through its native API, which cost
 * half of a 200-row read (0.26 µs a value); the same rows come out, a later column winning over an
 * earlier one of the same name as there. With `convert`, the rows of `all` also get their values
 * converted in the same pass and the list is marked `ROWS_CONVERTED`, so that a later pass over
 * every key of every row (values.ts) skips it; iterated rows stay raw.
 */
function withRowBuilder(statement: SqliteStatement, convert?: ColumnConversion): SqliteStatement {
  if (!statement.reader || !hasArrayRows(statement)) return statement;
  const names = statement.columns().map((c) => c.name);
  if (names.includes('__proto__')) return statement;
  const conversions = names.map((n) => convert?.(n));
  // Keys are written as JSON string literals: any column name is a safe property name.
  const compile = (converting: boolean) =>
    new Function(
      'v',
      'c',
      `const o = {}; ${names
        .map((n, i) => `o[${JSON.stringify(n)}] = ${converting && conversions[i] ? `c[${i}](v[${i}])` : `v[${i}]`};`)
        .join(' ')} return o;`,
    ) as (values: unknown[], conversions: unknown[]) => unknown;
  const build = compile(false);
  const buildConverted = convert ? compile(true) : undefined;
  const arrays = statement.raw(true);
  return {
    reader: true,
    all: (parameters) => {
      const raw = arrays.all(parameters) as unknown[][];
      if (!buildConverted) return raw.map((v) => build(v, conversions));
      const rows = raw.map((v) => buildConverted(v, conversions));
      Object.defineProperty(rows, ROWS_CONVERTED, { value: true });
      return rows;
    },
    run: (parameters) => arrays.run(parameters),
    *iterate(parameters) {
      for (const values of arrays.iterate(parameters)) yield build(values as unknown[], conversions);
    },
  };
}
