import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../bootstrap.js';
import { emptyInstallation, everyRow, type Installation } from '../../test/companies.js';
import { dialectName } from '../../test/harness.js';
import { root } from '../../test/spawned.js';
import { restoreBackup } from './restoreBackup.js';
import { takeBackup } from './takeBackup.js';

/**
 * A backup taken while another process writes: each write adds the same id to two tables in one
 * transaction, so a copy of one moment has the same ids in both, and the manifest counts the copy's
 * rows, not the live database's. SQLite restarts an online backup whenever another connection writes
 * between two of its steps: at better-sqlite3's default pace (100 pages a step) this 10 MB database
 * took from a second to longer than a test waits, read in one step it takes milliseconds.
 */

interface Writer {
  /** Resolves once at least `n` writes are committed. */
  until(n: number): Promise<void>;
  stop(): Promise<void>;
}

/** Another process writing to DATA_DIR/app.db as fast as it can (better-sqlite3 blocks its own thread). */
function sqliteWriter(file: string): Writer {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(process.env.DB_FILE);
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = OFF');
    const a = db.prepare('insert into backup_probe_a (id) values (?)');
    const b = db.prepare('insert into backup_probe_b (id) values (?)');
    const write = db.transaction((id) => { a.run(id); b.run(id); });
    // Never a pause, not even a turn of the event loop. Gone with the test's process, even when
    // that is killed (it is then adopted by another parent).
    const parent = process.ppid;
    for (let id = 1; ; id++) {
      write(id);
      if (id % 50 === 0) {
        process.stdout.write(id + '\\n');
        if (process.ppid !== parent) process.exit(0);
      }
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH, DB_FILE: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let count = 0;
  let errors = '';
  const waiting = new Set<{ n: number; resolve: () => void; reject: (e: Error) => void }>();
  const settle = () => {
    for (const w of waiting) {
      if (count < w.n) continue;
      waiting.delete(w);
      w.resolve();
    }
  };
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    const numbers = text.trim().split('\n').map(Number);
    count = Math.max(count, ...numbers);
    settle();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => {
    for (const w of waiting) w.reject(new Error(`the writer stopped: ${errors}`));
  });
  return {
    until: (n) =>
      new Promise((resolve, reject) => {
        waiting.add({ n, resolve, reject });
        settle();
      }),
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A connection of its own writing in a loop (pg_dump runs in another process meanwhile). */
function postgresWriter(url: string): Writer {
  let count = 0;
  let stopped = false;
  const waiting = new Set<{ n: number; resolve: () => void }>();
  const loop = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let id = 1; !stopped; id++) {
        await client.query('begin');
        await client.query('insert into backup_probe_a (id) values ($1)', [id]);
        await client.query('insert into backup_probe_b (id) values ($1)', [id]);
        await client.query('commit');
        count = id;
        for (const w of waiting) {
          if (count < w.n) continue;
          waiting.delete(w);
          w.resolve();
        }
      }
    } finally {
      await client.end();
    }
  })();
  return {
    until: (n) =>
      new Promise((resolve, reject) => {
        if (count >= n) return resolve();
        waiting.add({ n, resolve });
        loop.catch(reject);
      }),
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** The writer's rows in the database now. */
async function committedRows(company: Installation): Promise<number> {
  const db = company.connect();
  try {
    const row = await sql<{ n: number }>`select count(*) as n from backup_probe_a`.execute(db.kysely);
    return Number(row.rows[0]?.n);
  } finally {
    await db.close();
  }
}

describe(`a backup while writes go on (${dialectName})`, () => {
  const made: Installation[] = [];
  const dirs: string[] = [];
  const writers: Writer[] = [];
  afterAll(async () => {
    for (const w of writers) await w.stop();
    for (const i of made) await i.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is a copy of one moment, and finishes', async () => {
    const company = await emptyInstallation();
    made.push(company);
    const db = company.connect();
    try {
      await prepareDatabase(db);
      await sql`create table backup_probe_a (id integer primary key)`.execute(db.kysely);
      await sql`create table backup_probe_b (id integer primary key)`.execute(db.kysely);
      // Some 10 MB: 2 500 pages, 25 steps of the default backup's pace.
      await sql`create table backup_probe_pad (id integer primary key, payload text not null)`.execute(db.kysely);
      const pad = db.kind === 'sqlite' ? sql`hex(randomblob(250))` : sql`repeat(md5(random()::text), 16)`;
      for (let i = 0; i < 40; i++) {
        await sql`insert into backup_probe_pad (id, payload)
          select ${i * 500} + n, ${pad} from (${
            db.kind === 'sqlite'
              ? sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < 500) select n from s`
              : sql`select generate_series(1, 500) as n`
          }) as s`.execute(db.kysely);
      }
    } finally {
      await db.close();
    }

    const writer =
      dialectName === 'sqlite'
        ? sqliteWriter(join(company.config.dataDir, 'app.db'))
        : postgresWriter(company.config.databaseUrl ?? '');
    writers.push(writer);
    const dir = mkdtempSync(join(tmpdir(), 'lms-live-backup-'));
    dirs.push(dir);
    let copied: number;
    try {
      await writer.until(200);
      const manifest = await takeBackup(company.config, join(dir, 'backup'));
      copied = manifest.database.tables.backup_probe_a ?? -1;
      // The writer was busy before the backup began and is still: it commits more after it ended.
      const afterwards = await committedRows(company);
      expect(afterwards).toBeGreaterThanOrEqual(copied);
      await writer.until(afterwards + 1);
      expect(manifest.database.tables.backup_probe_b).toBe(copied);
      expect(copied).toBeGreaterThanOrEqual(200);
      expect(manifest.database.tables.backup_probe_pad).toBe(20_000);
    } finally {
      await writer.stop();
    }

    // The copy restores (the rows counted against the manifest on PostgreSQL) with the same ids in both.
    const target = await emptyInstallation();
    made.push(target);
    await restoreBackup(target.config, join(dir, 'backup'));
    const rows = await everyRow(target);
    expect(rows.backup_probe_a).toHaveLength(copied);
    expect(rows.backup_probe_b).toEqual(rows.backup_probe_a);
    if (dialectName === 'sqlite') {
      const restored = new SQLite(join(target.config.dataDir, 'app.db'), { readonly: true });
      try {
        expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        restored.close();
      }
    }
  }, 60_000);
});
