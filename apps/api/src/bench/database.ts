/**
 * A fresh database for one benchmark run: a temporary SQLite folder, or a temporary PostgreSQL
 * database created on BENCH_PG_URL (the local `test` database by default) and dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connect, type Db } from '../db/connect.js';

export type BenchDb = 'sqlite' | 'postgres';

export interface FreshDatabase {
  kind: BenchDb;
  /** A folder of its own: the server's DATA_DIR (and the SQLite file). */
  dir: string;
  /** What the server process is given: DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  connect(): Db;
  drop(): Promise<void>;
}

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function freshDatabase(kind: BenchDb, label: string): Promise<FreshDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `lms-bench-${label}-`));
  if (kind === 'sqlite') {
    return {
      kind,
      dir,
      env: { DATA_DIR: dir },
      connect: () => connect({ dataDir: dir }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `lms_bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    dir,
    env: { DATA_DIR: dir, DATABASE_URL: url.href },
    connect: () => connect({ databaseUrl: url.href, applicationName: 'lms-bench' }),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
