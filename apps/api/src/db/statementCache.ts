import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Enough for every distinct statement the server makes (queries are built from a fixed set of shapes). */
const DEFAULT_CAPACITY = 1000;

/**
 * better-sqlite3 behind Kysely's SQLite driver, with its prepared statements kept by SQL text:
 * the driver prepares every query anew, which cost about an eighth of the server's CPU under load.
 * Kysely runs one query at a time on its single connection, so a statement is never used twice at
 * once. The least recently used statement is dropped when the cache is full (queries with
 * `in (…)` lists of varying length make distinct texts).
 */
export function withStatementCache(database: SqliteDatabase, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      return database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached) {
        // Re-inserting moves it to the end: Map iteration order is the recency order.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
  };
}
