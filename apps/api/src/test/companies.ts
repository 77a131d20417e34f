import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { ensureFirstAdmin, prepareDatabase } from '../bootstrap.js';
import { loadConfig, type Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { loadDemo } from '../demo/seed.js';
import { ManualClock } from '../platform/clock.js';
import { SCORM_PREFIX, UPLOADS_PREFIX, type FileStore } from '../platform/fileStore/fileStore.js';
import { TEST_DATABASE_URL } from './harness.js';

/**
 * Whole installations for the backup's tests: a DATA_DIR of its own and, on PostgreSQL
 * (TEST_DATABASE_URL), a database of its own (a restore needs an empty database, not a schema),
 * dropped afterwards. Rows and files are read through the drivers, as an outsider would compare them.
 */
export interface Installation {
  /** The environment the server and the commands would run with. */
  env: Record<string, string>;
  config: Config;
  connect(): Db;
  drop(): Promise<void>;
}

/** The test server's database `name`, as its administrator or as another role. */
export const databaseUrl = (name: string, role?: { user: string; password: string }) => {
  const url = new URL(TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  if (role) [url.username, url.password] = [role.user, role.password];
  return url.toString();
};

/** A statement as the test server's administrator (TEST_DATABASE_URL's user), on `database` or its own. */
export async function onServer(statement: string, database?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: database ? databaseUrl(database) : TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** An installation with nothing in it: an empty DATA_DIR, and an empty database on PostgreSQL. */
export async function emptyInstallation(storageEnv: Record<string, string> = {}): Promise<Installation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-install-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOGIN_DOMAIN: 'example.com', ...storageEnv };
  let database: string | null = null;
  if (TEST_DATABASE_URL) {
    database = `lms_backup_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onServer(`create database ${database}`);
    env.DATABASE_URL = databaseUrl(database);
  }
  const config = loadConfig(env);
  return {
    env,
    config,
    connect: () => connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
    drop: async () => {
      if (database) await onServer(`drop database if exists ${database} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A SCORM package's files as the store keeps them (the demo has none). */
export const PACKAGE_FILES: Record<string, Buffer> = {
  'scorm/p0123abcd/imsmanifest.xml': Buffer.from('<manifest identifier="demo"/>'),
  'scorm/p0123abcd/a/index.html': Buffer.from('<html><body>Урок</body></html>'),
  'scorm/p0123abcd/Курс продаж/страница 1.html': Buffer.from('<p>Страница</p>'),
};

/** The demo company (people, courses, progress, files), a generated key and a SCORM package's files. */
export async function demoInstallation(store: (config: Config) => FileStore, storageEnv: Record<string, string> = {}) {
  const company = await emptyInstallation(storageEnv);
  const db = company.connect();
  try {
    const clock = new ManualClock('2026-03-10T09:00:00.000Z');
    await prepareDatabase(db, clock);
    await ensureFirstAdmin(db.kysely, company.config, clock);
    await loadDemo(db.kysely, company.config, clock);
  } finally {
    await db.close();
  }
  writeFileSync(join(company.config.dataDir, 'app-secret'), randomBytes(32).toString('hex'), { mode: 0o600 });
  const files = store(company.config);
  for (const [key, bytes] of Object.entries(PACKAGE_FILES)) await files.write(key, Readable.from([bytes]));
  return company;
}

type Row = Record<string, unknown>;

/** Every row of every table (SQLite's own sequence table and PostgreSQL's sequences too), by primary key. */
export async function everyRow(installation: Pick<Installation, 'config'>): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  if (!installation.config.databaseUrl) {
    const db = new SQLite(join(installation.config.dataDir, 'app.db'), { readonly: true, fileMustExist: true });
    try {
      const tables = db
        .prepare<[], { name: string }>("select name from sqlite_schema where type = 'table' order by name")
        .all();
      for (const { name } of tables) {
        const keys = db
          .prepare<[string], { name: string; pk: number }>('select name, pk from pragma_table_info(?)')
          .all(name)
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => quoted(c.name));
        const order = keys.length > 0 ? keys.join(', ') : 'rowid';
        out[name] = db.prepare<[], Row>(`select * from ${quoted(name)} order by ${order}`).all();
      }
    } finally {
      db.close();
    }
    return out;
  }
  const client = new pg.Client({ connectionString: installation.config.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    );
    for (const { name } of tables.rows) {
      const keys = await client.query<{ column: string }>(
        `select a.attname as column from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = $1::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
        [`public.${quoted(name)}`],
      );
      const columns = (await client.query(`select * from public.${quoted(name)} limit 0`)).fields.length;
      const order =
        keys.rows.length > 0
          ? keys.rows.map((k) => quoted(k.column)).join(', ')
          : Array.from({ length: columns }, (_, i) => i + 1).join(', ');
      out[name] = (await client.query<Row>(`select * from public.${quoted(name)} order by ${order}`)).rows;
    }
    const sequences = await client.query<Row>(
      'select sequencename, last_value from pg_sequences order by sequencename',
    );
    out['(sequences)'] = sequences.rows;
  } finally {
    await client.end();
  }
  return out;
}

/**
 * Every file of a store by its bytes' SHA-256 (read through the store, whole): compared as digests,
 * since Vitest compares two large Buffers element by element (40 s for 9 MB).
 */
export async function everyFile(store: FileStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const prefix of [UPLOADS_PREFIX, SCORM_PREFIX]) {
    for await (const object of store.list(prefix)) {
      const opened = await store.open(object.key);
      if (!opened) continue;
      const hash = createHash('sha256');
      for await (const chunk of await opened.stream()) hash.update(chunk as Buffer);
      out[object.key] = hash.digest('hex');
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
