import { createHash } from 'node:crypto';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type LogEvent,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { PRIVATE_FILE_MODE, ensurePrivateDir, ensurePrivateFile, tightenBestEffort } from '../lib/privateFiles.js';
import { pgTimeToIso } from './pgTimes.js';
import { withStatementCache } from './statementCache.js';
import { SqliteValuesPlugin, sqliteColumnConversion } from './values.js';
import type { DialectKind } from './dialect.js';
import type { Database } from './schema.js';

export interface Db {
  kysely: Kysely<Database>;
  kind: DialectKind;
  /** PostgreSQL schema when not the default one (tests). */
  schema?: string | undefined;
  /**
   * Opens every connection the server will use (PostgreSQL), so that a burst of requests after
   * start-up does not wait for them to be opened one by one; a failure leaves them to open on demand.
   */
  openConnections(): Promise<void>;
  close(): Promise<void>;
  /** Calls `listener` with every statement's time (the metrics' histogram); returns what stops it. */
  onQueryTime(listener: QueryTimeListener): () => void;
  /** PostgreSQL's pool as it is now; null on SQLite, whose one connection is not a pool. */
  poolStats(): PoolStats | null;
}

export type QueryTimeListener = (ms: number, failed: boolean) => void;

export interface PoolStats {
  /** Connections open (idle or lent), at most `max`. */
  open: number;
  idle: number;
  /** Queries waiting for a connection: every one is lent. */
  waiting: number;
  max: number;
}

/** PostgreSQL connections per process: opened at start-up by `openConnections` and kept while idle. */
const PG_POOL_SIZE = 10;

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;

/** pg returns times as ISO strings (like SQLite) and counts as numbers. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ || oid === TIMESTAMP) return pgTimeToIso;
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Named (server-side prepared) statements kept per connection, at most: PostgreSQL holds each one's plan. */
const NAMED_PER_CONNECTION = 300;
/** Only queries and row changes are named: schema changes and transaction control run as they come. */
const DML = /^\s*(select|insert|update|delete|with)\b/i;

/** Statement names by text, remembered: the same few hundred texts come on every request. */
const NAMES_KEPT = 2000;
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= NAMES_KEPT) names.clear();
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The pool as Kysely sees it, with each statement named by its text, so that PostgreSQL parses and
 * plans it once per connection instead of on every call (the session lookup of every request, the
 * home lists): the counterpart of SQLite's statement cache. Past its bound a connection sends
 * statements unnamed.
 */
function namingPool(pool: pg.Pool): PostgresPool {
  // One wrapper per pooled connection, so that Kysely keeps recognising the connection it wraps.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const named = new Set<string>();
    const query = (sqlOrCursor: unknown, parameters?: readonly unknown[]): unknown => {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
      const values = [...(parameters ?? [])];
      const name = statementName(sqlOrCursor);
      const bounded = !named.has(name) && named.size >= NAMED_PER_CONNECTION;
      if (bounded || !DML.test(sqlOrCursor)) return client.query(sqlOrCursor, values);
      named.add(name);
      return client.query({ name, text: sqlOrCursor, values });
    };
    // pg-pool gives the client a new `release` at each checkout: looked up when called.
    return { query: query as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
  };
}

/** PostgreSQL's cost of a random page read relative to a sequential one (its default, 4, is a disk's). */
const RANDOM_PAGE_COST = 1.1;

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for tests. */
  sqliteFile?: string;
  dataDir?: string;
  /** PostgreSQL schema to use as search_path (test isolation). */
  pgSchema?: string;
  /** How the server's PostgreSQL connections are named in `pg_stat_activity`. */
  applicationName?: string;
  /** Called with each executed statement's SQL (tests count the queries of a call). */
  onQuery?: (sql: string) => void;
}

/** Kysely's log of each executed statement (errors too): the tests' listener and the time listeners. */
function queryLog(opts: ConnectOptions, timings: Set<QueryTimeListener>) {
  const { onQuery } = opts;
  return {
    log: (event: LogEvent) => {
      onQuery?.(event.query.sql);
      for (const listener of timings) listener(event.queryDurationMillis, event.level === 'error');
    },
  };
}

function timeListeners() {
  const timings = new Set<QueryTimeListener>();
  const onQueryTime = (listener: QueryTimeListener) => {
    timings.add(listener);
    return () => void timings.delete(listener);
  };
  return { timings, onQueryTime };
}

export function connect(opts: ConnectOptions): Db {
  const { timings, onQueryTime } = timeListeners();
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      types: pgTypes,
      application_name: opts.applicationName ?? 'lms',
      max: PG_POOL_SIZE,
      // Idle connections are kept: closing them after a quiet spell would make the next burst (an exam
      // everyone starts at nine) open them again, one backend start each, while it queues.
      min: PG_POOL_SIZE,
      // Kept connections are probed while idle: one a firewall or NAT dropped in a quiet night is
      // found and replaced instead of failing the morning's first requests.
      keepAlive: true,
      // Times come back in UTC whatever the server's default, the form `pgTimeToIso` reads fastest.
      // Random reads priced as the cached or solid-state reads they are (docs/decisions.md §PostgreSQL
      // plans): at the default 4 the planner hashed every lesson of the company to find a learner's
      // sixteen lesson records, a millisecond per home page instead of a quarter.
      options: [
        '-c timezone=UTC',
        `-c random_page_cost=${RANDOM_PAGE_COST}`,
        ...(opts.pgSchema ? [`-c search_path=${opts.pgSchema}`] : []),
      ].join(' '),
    });
    // An idle connection that breaks (a restarted or dropped database) leaves the pool by itself and
    // the next query opens a new one; unheard, pg's 'error' event would end the process instead.
    pool.on('error', () => undefined);
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: namingPool(pool) }),
      ...queryLog(opts, timings),
    });
    const openConnections = async () => {
      const opened = await Promise.allSettled(Array.from({ length: PG_POOL_SIZE }, () => pool.connect()));
      for (const c of opened) if (c.status === 'fulfilled') c.value.release();
    };
    const poolStats = () => ({
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: PG_POOL_SIZE,
    });
    const close = () => kysely.destroy();
    return { kysely, kind: 'postgres', schema: opts.pgSchema, openConnections, close, onQueryTime, poolStats };
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
    dialect: new SqliteDialect({ database: withStatementCache(database, undefined, sqliteColumnConversion) }),
    plugins: [new SqliteValuesPlugin()],
    ...queryLog(opts, timings),
  });
  const close = () => kysely.destroy();
  return { kysely, kind: 'sqlite', openConnections: async () => undefined, close, onQueryTime, poolStats: () => null };
}
