import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Db } from '../db/connect.js';
import { createFreshDatabase, type FreshDatabase } from './freshDatabase.js';
import { freePort, startHaproxy, stopAllHaproxy, type RunningHaproxy } from './haproxy.js';
import { pollUntil } from './poll.js';
import { startS3Server } from './s3Server.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { root, start, stopAll, within, type Running } from './spawned.js';

export const ADMIN_EMAIL = 'admin@company.ru';
export const ADMIN_PASSWORD = 'Cluster-admin-password-1';

/**
 * The README's set-up of several processes (§Several processes), on this machine: `size` built servers
 * on one fresh PostgreSQL database with the same APP_SECRET, files in one S3 bucket (the s3rver test
 * server), mail through one SMTP server, the demo company loaded first as `npm run demo` does, and
 * HAProxy on deploy/haproxy.cfg in front of them.
 */
export interface Cluster {
  balancer: RunningHaproxy;
  /** The processes in the order of the balancer's servers (api1, api2, …); a restarted one replaces its slot. */
  processes: Running[];
  /** Each process's own address (not through the balancer). */
  urls: string[];
  /** The environment every process gets. */
  env: Record<string, string>;
  /** The test's own connection to the cluster's database, for reading what was written. */
  db: Db;
  smtp: TestSmtp;
  /** GET /metrics of process `i`, as Prometheus reads it (METRICS_TOKEN). */
  metrics(i: number): Promise<string>;
  /** Starts process `i` again on its address (after it was killed). */
  restart(i: number): Promise<void>;
  /** Everything context for a failure: the balancer's log, then each process's output. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs a built script of apps/api like an operator's command, failing with its output. */
function runNode(script: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(root, script)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}:\n${out}`))));
  });
}

/** Each process's share of one counter of its /metrics (summed over the series whose labels match). */
export function counter(metricsText: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of metricsText.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`));
    if (has) total += Number(m[3]);
  }
  return total;
}

/** The stop of every cluster started or being started, for `stopClusters`. */
const starting = new Set<() => Promise<void>>();

/**
 * Stops whatever a cluster has started so far, also one whose start is still under way (a hook that
 * timed out): an after-all hook calls it, so that no process, folder or database outlives the test.
 */
export async function stopClusters(): Promise<void> {
  for (const stop of [...starting]) await stop();
}

export async function startCluster(size: number, serverUrl: string): Promise<Cluster> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    starting.delete(stop);
    // In reverse: the balancer and processes before the services and the database they use.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  starting.add(stop);
  try {
    const smtp = await startSmtp();
    cleanups.push(() => smtp.close());
    const s3 = await startS3Server();
    cleanups.push(() => s3.stop());
    const database: FreshDatabase = await createFreshDatabase(serverUrl);
    cleanups.push(() => database.drop());
    const port = await freePort();
    const metricsToken = randomBytes(24).toString('hex');
    const env = {
      DATABASE_URL: database.url,
      // The same key everywhere: a CSRF token or a queued mail sealed by one process is read by another.
      APP_SECRET: randomBytes(32).toString('hex'),
      ...s3.env,
      MAIL_HOST: '127.0.0.1',
      MAIL_PORT: String(smtp.port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: '1',
      REMINDERS_INTERVAL_MINUTES: '1',
      METRICS_TOKEN: metricsToken,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    };
    await loadDemo(env);
    cleanups.push(async () => stopAll());
    const processes = Array.from({ length: size }, () => start(process.execPath, ['apps/api/dist/server.js'], env));
    const urls = await Promise.all(processes.map((r) => within(r, 'start banner', r.url, 120_000)));
    const balancer = await startHaproxy(
      urls.map((u) => new URL(u).host),
      port,
    );
    cleanups.push(() => stopAllHaproxy());
    const db = connect({ databaseUrl: database.url });
    // Before the database is dropped (cleanups run in reverse).
    cleanups.push(() => db.close());
    const cluster: Cluster = {
      balancer,
      processes,
      urls,
      env,
      db,
      smtp,
      metrics: async (i) => {
        const res = await fetch(`${urls[i]}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
        if (res.status !== 200) throw new Error(`GET /metrics of process ${i + 1}: ${res.status}`);
        return res.text();
      },
      restart: async (i) => {
        const url = urls[i] ?? '';
        const again = start(process.execPath, ['apps/api/dist/server.js'], { ...env, PORT: new URL(url).port });
        processes[i] = again;
        await within(again, 'start banner', again.url, 120_000);
      },
      output: () =>
        [`== haproxy ==\n${balancer.output()}`, ...processes.map((r, i) => `== api${i + 1} ==\n${r.output()}`)]
          .join('\n')
          .slice(-20_000),
      stop,
    };
    await pollUntil(
      'every process UP in the balancer (GET /readyz answered 200)',
      async () => (await balancer.servers()).every((s) => s.status === 'UP'),
      60_000,
      cluster.output,
    );
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `npm run demo` against the cluster's database and bucket (it migrates first, as the servers do). */
async function loadDemo(env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-demo-'));
  try {
    await runNode('apps/api/dist/demo/cli.js', { ...env, DATA_DIR: dataDir, NODE_ENV: 'production' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
