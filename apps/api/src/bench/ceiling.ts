/**
 * HTTP benchmark against the ceiling (issue 14): the built server on a generated organisation
 * (`--users N`, 10 000 by default) and a bare Fastify "hello" server, measured in the same run with
 * the same client at 64 connections. For each call: req/s, p50, p99, errors and the ratio to hello;
 * the server's memory after the load. On SQLite and PostgreSQL (BENCH_DB=sqlite|postgres|both,
 * BENCH_PG_URL, BENCH_SECONDS per call, 5 by default, BENCH_CALLS to pick calls). Run by `npm run bench`.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { connect, type Db } from '../db/connect.js';
import { randomToken } from '../platform/tokens.js';
import { LoadClient, percentile, startServer, stopServer } from './http.js';
import { DEPARTMENTS, seedOrganisation, seedSessions, type SessionHeaders } from './organisation.js';

const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SECRET = `ceiling-bench-${randomToken()}`;
const usersArg = process.argv.indexOf('--users');
const USERS = usersArg > 0 ? Number(process.argv[usersArg + 1]) : 10_000;
/** Only some calls, by key (check-auth, home, catalogue, users), comma-separated: for profiling one. */
const ONLY = process.env.BENCH_CALLS?.split(',');

interface Figure {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, name: string, step: (c: LoadClient, turn: number) => Promise<unknown>) {
  const client = new LoadClient(url, CONNECTIONS);
  // A short warm-up, not counted: the server's code compiled, its caches filled, and the client's
  // connections open (as autocannon's are before it measures; a fresh connection's first request
  // waited up to 1.6 s in the exam spike while the server was busy).
  await client.saturate(Math.min(1, SECONDS / 5), (turn) => step(client, turn));
  client.resetCounts();
  const started = performance.now();
  const views = await client.saturate(SECONDS, (turn) => step(client, turn));
  const seconds = (performance.now() - started) / 1000;
  const samples = [...client.latencies.values()].flat();
  client.close();
  return {
    name,
    perSecond: views / seconds,
    p50: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    errors: client.errors,
  } satisfies Figure;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function run(label: string, env: Record<string, string>, open: () => Db, hello: Figure) {
  const db = open();
  const t0 = performance.now();
  const org = await seedOrganisation(db, USERS);
  const admin = await db.kysely
    .insertInto('users')
    .values({
      first_name: 'Админ',
      last_name: 'Бенч',
      email: 'admin@bench.local',
      password_hash: 'seeded-without-password',
      role_id: (await db.kysely.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow())
        .id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // 1 000 learners share the load (ids after the managers), plus the admin.
  const learnerIds = Array.from({ length: Math.min(1000, USERS - DEPARTMENTS) }, (_, i) => DEPARTMENTS + 1 + i);
  const learners = await seedSessions(db, learnerIds, SECRET);
  const [adminHeaders] = await seedSessions(db, [admin.id], SECRET);
  // As autovacuum would soon after such a load: without statistics PostgreSQL plans for empty tables.
  if (db.kind === 'postgres') await sql`analyze`.execute(db.kysely);
  await db.close();
  if (!adminHeaders) throw new Error('no admin session');
  console.log(
    `ceiling, ${label}: ${org.users} employees, ${org.progressRows} progress rows seeded (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const server = await startServer({ ...env, APP_SECRET: SECRET });
  const learner = (turn: number): SessionHeaders => learners[turn % learners.length] ?? adminHeaders;
  const figures: Figure[] = [];
  try {
    const calls: [string, string, (c: LoadClient, turn: number) => Promise<unknown>][] = [
      ['check-auth', 'GET /api/check-auth', (c, t) => c.call('x', 'GET', '/api/check-auth', learner(t))],
      [
        'home',
        'home page-view (user/courses + started-lessons)',
        (c, t) =>
          Promise.all([
            c.call('courses', 'GET', '/api/user/courses', learner(t)),
            c.call('started', 'GET', '/api/user/started-lessons', learner(t)),
          ]),
      ],
      ['catalogue', 'GET /api/courses (catalogue, admin)', (c) => c.call('x', 'GET', '/api/courses', adminHeaders)],
      [
        'users',
        'GET /api/admin/users?page=N&per_page=50',
        (c, t) => c.call('x', 'GET', `/api/admin/users?page=${(t % 20) + 1}&per_page=50`, adminHeaders),
      ],
    ];
    for (const [key, name, step] of calls)
      if (!ONLY || ONLY.includes(key)) figures.push(await measure(server.url, name, step));
    console.log(`  server memory after the load: ${rssMb(server.child.pid).toFixed(0)} MB RSS`);
  } finally {
    await stopServer(server.child);
  }
  for (const f of figures)
    console.log(
      `  ${f.name.padEnd(50)} ${f.perSecond.toFixed(0).padStart(6)}/s  ${((100 * f.perSecond) / hello.perSecond).toFixed(1).padStart(5)} % of hello  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  errors ${f.errors}`,
    );
}

async function main() {
  const helloServer = await startServer({}, new URL('./hello.js', import.meta.url).pathname);
  let hello: Figure;
  try {
    hello = await measure(helloServer.url, 'hello', (c) => c.call('x', 'GET', '/', {}));
  } finally {
    await stopServer(helloServer.child);
  }
  console.log(
    `ceiling: bare Fastify hello ${hello.perSecond.toFixed(0)}/s, p50 ${hello.p50.toFixed(1)} ms, p99 ${hello.p99.toFixed(1)} ms (${CONNECTIONS} connections, ${SECONDS} s per call)`,
  );
  const which = process.env.BENCH_DB ?? 'both';
  if (which === 'sqlite' || which === 'both') {
    const dir = mkdtempSync(join(tmpdir(), 'lms-ceiling-'));
    try {
      await run('SQLite', { DATA_DIR: dir }, () => connect({ dataDir: dir }), hello);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (which === 'postgres' || which === 'both') {
    const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const name = `lms_ceiling_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    try {
      await admin.connect();
    } catch (error) {
      console.log(`ceiling, PostgreSQL: skipped (${String(error)})`);
      return;
    }
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(join(tmpdir(), 'lms-ceiling-'));
    try {
      await run(
        'PostgreSQL',
        { DATA_DIR: dir, DATABASE_URL: url.href },
        () => connect({ databaseUrl: url.href }),
        hello,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
