/**
 * The processes of a benchmark run: the server under test (the built `dist/server.js`) and the bare
 * hello server each in a process of its own, their output going to a log file as in production, and
 * their memory read from outside (/proc/<pid>/status: VmRSS sampled, VmHWM the peak); and the load
 * process (load.ts), which runs autocannon and answers with its figures as JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadResult, LoadSpec } from './load.js';

const dist = (file: string) => new URL(file, import.meta.url).pathname;

export interface Served {
  url: string;
  child: ChildProcess;
  logFile: string;
}

/**
 * Starts `script` (the server by default) on a free port and resolves with its address once it has
 * written it to its log. BENCH_SERVER_ARGS adds node options (e.g. `--cpu-prof`).
 */
export async function serve(dir: string, env: Record<string, string>, script = dist('../server.js')): Promise<Served> {
  const logFile = join(dir, `${script.endsWith('hello.js') ? 'hello' : 'server'}-${Date.now()}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), script],
    {
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', out, 'inherit'],
    },
  );
  closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (let waited = 0; waited < 120_000; waited += 50) {
    const found = /запущена: (http:\/\/[^\s]+)/.exec(readFileSync(logFile, 'utf8'));
    if (found?.[1]) return { url: found[1], child, logFile };
    if (exited !== undefined) break;
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`${script} did not start (${exited ?? 'no address in 120 s'}):\n${readFileSync(logFile, 'utf8')}`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** VmRSS and VmHWM of a process in MB. */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  if (!pid) return { rss: 0, peak: 0 };
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** Samples a process's RSS every 200 ms until stopped; answers the highest sample. */
export function sampleMemory(pid: number | undefined): () => number {
  let highest = memoryOf(pid).rss;
  const timer = setInterval(() => (highest = Math.max(highest, memoryOf(pid).rss)), 200);
  return () => {
    clearInterval(timer);
    return Math.max(highest, memoryOf(pid).rss);
  };
}

/** CPU seconds a process has used (user and system; /proc/<pid>/stat counts in 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until the process is idle (under 5 % of a core for half a second): requests of the previous
 * run still queued in the server, which the load process no longer waits for, are not counted
 * against the next run. Resolves with the seconds waited.
 */
export async function settle(pid: number | undefined, limitSeconds = 600): Promise<number> {
  if (!pid) return 0;
  const started = Date.now();
  let before = cpuSeconds(pid);
  while (Date.now() - started < limitSeconds * 1000) {
    await sleep(500);
    const now = cpuSeconds(pid);
    if (now - before < 0.025) break;
    before = now;
  }
  return (Date.now() - started) / 1000;
}

/** Runs the load process with `spec` and resolves with its figures. */
export async function load(dir: string, spec: LoadSpec): Promise<LoadResult> {
  const specFile = join(dir, `load-${Date.now()}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const child = spawn(process.execPath, [dist('./load.js'), specFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`load process exited with ${code}`);
  return JSON.parse(out) as LoadResult;
}
