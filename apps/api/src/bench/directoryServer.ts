/**
 * The server side of the directory sync bench (directory.ts forks it): the application built in a
 * process of its own on the bench's database, with the directory configured by its environment,
 * running one step of the sync at a time as directory.ts asks (IPC). Each step is timed and its
 * process's peak memory read: before it, a full garbage collection (node --expose-gc) and the
 * kernel's peak (VmHWM) reset to the present RSS (/proc/self/clear_refs), so the peak is the step's
 * own. The statements that write (insert, update, delete) are counted per table. With
 * BENCH_DIRECTORY_TRACE=1 the step's time is also split by statement: the time from the previous
 * statement's end to this one's (the statement and the code that prepared it), summed by its text;
 * with BENCH_DIRECTORY_PROFILE=<folder>, a CPU profile of each step is written there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { readDirectory } from '../modules/directory/client.js';
import { systemClock } from '../platform/clock.js';
import type { SessionHeaders } from './layout.js';
import { memoryOf } from './processes.js';

export type StepName = 'read' | 'dry-run' | 'apply' | 'scheduled';
export interface StepRequest {
  step: StepName;
  batchId?: number;
}

export interface BatchSummary {
  id: number;
  status: string;
  counts: Record<'create' | 'update' | 'unchanged' | 'delete' | 'error', number>;
  new_departments: string[];
}

export interface StepResult {
  step: StepName;
  seconds: number;
  /** RSS before the step (after a full collection) and the step's peak, MB. */
  rssBefore: number;
  peak: number;
  /** V8's heap in use after a full collection, before the step and after it, MB (what stays). */
  heapBefore: number;
  heapAfter: number;
  /** Writing statements per table; the signed-in admin's activity mark counted apart. */
  writes: Record<string, number>;
  batch?: BatchSummary;
  entries?: { total: number; disabled: number };
  /** BENCH_DIRECTORY_TRACE: the largest shares of the step, by statement (its text's start). */
  trace?: { statement: string; n: number; ms: number }[];
}

export type StepReply = { ok: true; result: StepResult } | { ok: false; error: string };

const env = process.env;
const headers = JSON.parse(env.BENCH_HEADERS ?? '{}') as SessionHeaders;

/** The written table of a statement, or undefined for one that only reads. */
function writtenTable(statement: string): string | undefined {
  // The session's and its user's activity mark (platform/sessions.ts): the request's, not the sync's.
  if (/"last_activity_at"|^\s*update "sessions"/i.test(statement)) return 'activity mark';
  return /^\s*(?:insert into|update|delete from)\s+"?(\w+)"?/i.exec(statement)?.[1];
}

const writes = new Map<string, number>();
const TRACE = env.BENCH_DIRECTORY_TRACE === '1';
const traced = new Map<string, { n: number; ms: number }>();
let lastEnd = 0;
function trace(statement: string, at = performance.now()): void {
  const shape = statement
    .replace(/\s+/g, ' ')
    .replace(/\(\$\d+(, \$\d+)*\)/g, '(…)')
    .slice(0, 140);
  const seen = traced.get(shape) ?? { n: 0, ms: 0 };
  traced.set(shape, { n: seen.n + 1, ms: seen.ms + at - lastEnd });
  lastEnd = at;
}
const config = loadConfig({
  ...env,
  NODE_ENV: 'production',
  DATA_DIR: env.DATA_DIR,
  WEB_DIST: join(env.DATA_DIR ?? '', 'none'),
  LOGIN_DOMAIN: 'bench.local',
});
const db = connect({
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR }),
  applicationName: 'lms-bench-directory',
  onQuery: (statement) => {
    const table = writtenTable(statement);
    if (table !== undefined) writes.set(table, (writes.get(table) ?? 0) + 1);
    if (TRACE) trace(statement);
  },
});
const app = await buildApp({ config, db, clock: systemClock, secret: env.BENCH_SECRET ?? '' });
await app.ready();

async function call(method: 'POST', url: string): Promise<BatchSummary> {
  const res = await app.inject({ method, url, headers });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return (JSON.parse(res.body) as { data: BatchSummary }).data;
}

async function run(request: StepRequest): Promise<Pick<StepResult, 'batch' | 'entries'>> {
  switch (request.step) {
    case 'read': {
      if (!config.directory) throw new Error('LDAP_URL is not set');
      const entries = await readDirectory(config.directory);
      return { entries: { total: entries.length, disabled: entries.filter((e) => e.disabled).length } };
    }
    case 'dry-run':
      return { batch: await call('POST', '/api/admin/directory-sync') };
    case 'apply':
      return { batch: await call('POST', `/api/admin/people-import/${request.batchId}/apply`) };
    case 'scheduled':
      return { batch: await app.jobs.syncDirectory() };
  }
}

const PROFILES = env.BENCH_DIRECTORY_PROFILE;
let profiled = 0;

/** Runs `work` under the CPU profiler when BENCH_DIRECTORY_PROFILE names a folder. */
async function profile<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILES) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile: taken } = await session.post('Profiler.stop');
    mkdirSync(PROFILES, { recursive: true });
    writeFileSync(join(PROFILES, `${++profiled}-${name}.cpuprofile`), JSON.stringify(taken));
    session.disconnect();
  }
}

async function step(request: StepRequest): Promise<StepResult> {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  const heapBefore = process.memoryUsage().heapUsed / 2 ** 20;
  const rssBefore = memoryOf(process.pid).rss;
  writeFileSync('/proc/self/clear_refs', '5');
  writes.clear();
  traced.clear();
  const started = performance.now();
  lastEnd = started;
  const outcome = await profile(request.step, () => run(request));
  if (TRACE) trace('(after the last statement)');
  const seconds = (performance.now() - started) / 1000;
  const peak = memoryOf(process.pid).peak;
  collect?.();
  return {
    step: request.step,
    seconds,
    rssBefore,
    peak,
    heapBefore,
    heapAfter: process.memoryUsage().heapUsed / 2 ** 20,
    writes: Object.fromEntries(writes),
    ...(TRACE
      ? {
          trace: [...traced]
            .map(([statement, t]) => ({ statement, ...t }))
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 12),
        }
      : {}),
    ...outcome,
  };
}

process.on('message', (request: StepRequest | 'stop') => {
  if (request === 'stop') {
    void app
      .close()
      .then(() => db.close())
      .then(() => process.disconnect());
    return;
  }
  step(request).then(
    (result) => process.send?.({ ok: true, result } satisfies StepReply),
    (error: unknown) =>
      process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
process.send?.('ready');
