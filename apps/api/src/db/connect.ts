import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { PRIVATE_FILE_MODE, ensurePrivateDir, ensurePrivateFile, tightenBestEffort } from '../platform/privateFiles.js';
import { withStatementCache } from './statementCache.js';
import { SqliteValuesPlugin } from './values.js';
import type { DialectKind } from './dialect.js';
import type { Database } from './schema.js';

export interface Db {
  kysely: Kysely<Database>;
  kind: DialectKind;
  /** PostgreSQL schema when not the default one (tests). */
  schema?: string | undefined;
  close(): Promise<void>;
}

const toIso = (v: string) => new Date(v).toISOString();
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;

/** pg returns times as ISO strings (like SQLite) and counts as numbers. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ || oid === TIMESTAMP) return toIso;
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for tests. */
  sqliteFile?: string;
  dataDir?: string;
  /** PostgreSQL schema to use as search_path (test isolation). */
  pgSchema?: string;
}

export function connect(opts: ConnectOptions): Db {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      types: pgTypes,
      max: 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, kind: 'postgres', schema: opts.pgSchema, close: () => kysely.destroy() };
  }
  if (opts.databaseUrl) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  let file = opts.sqliteFile;
  if (!file) {
    const dir = opts.dataDir ?? './data';
    ensurePrivateDir(dir);
    file = join(dir, 'app.db');
  }
  if (file !== ':memory:') {
    // Owner-only before SQLite creates it: the -wal and -shm files copy the database file's mode
    // (those left by an older version are tightened too).
    ensurePrivateFile(file);
    for (const suffix of ['-wal', '-shm']) tightenBestEffort(file + suffix, PRIVATE_FILE_MODE);
  }
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // SQLite's own lower() folds ASCII only; PostgreSQL's folds every letter. Searches by name
  // ('Иванов' found by 'иван') need the same on both, so lower() is replaced by a Unicode one.
  database.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    plugins: [new SqliteValuesPlugin()],
  });
  return { kysely, kind: 'sqlite', close: () => kysely.destroy() };
}
