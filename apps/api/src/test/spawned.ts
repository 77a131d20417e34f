import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server as an operator runs it (the build in apps/api/dist, through npm and
 * scripts/start.mjs or directly), for the tests of starting and stopping it.
 */
export const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface Running {
  proc: ChildProcess;
  /** The address printed in the start banner. */
  url: Promise<string>;
  /** The server's own pid, from its JSON log lines. */
  serverPid: Promise<number>;
  /** Every process holding the output has exited (the server included, since it inherits it). */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

const running: Running[] = [];
const dirs: string[] = [];

/** Builds apps/api (incremental: nothing to do when apps/api/dist is current). */
export function buildServer(): void {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`tsc -b apps/api failed:\n${tsc.stdout}${tsc.stderr}`);
}

export function start(command: string, args: string[], env: Record<string, string> = {}): Running {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-start-'));
  dirs.push(dataDir);
  const base = { ...process.env };
  // The server of these tests uses its own SQLite file, whatever the suite runs on.
  delete base.DATABASE_URL;
  delete base.APP_SECRET;
  const proc = spawn(command, args, {
    cwd: root,
    env: {
      ...base,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'Start-test-password-1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let onUrl: (url: string) => void = () => {};
  let onPid: (pid: number) => void = () => {};
  const url = new Promise<string>((r) => (onUrl = r));
  const serverPid = new Promise<number>((r) => (onPid = r));
  const read = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const printed = /Платформа обучения запущена: (\S+)/.exec(out);
    if (printed?.[1]) onUrl(printed[1]);
    const logged = /"pid":(\d+)/.exec(out);
    if (logged?.[1]) onPid(Number(logged[1]));
  };
  proc.stdout?.on('data', read);
  proc.stderr?.on('data', read);
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  const r: Running = { proc, url, serverPid, closed, output: () => out };
  running.push(r);
  return r;
}

/** After each test: a failed one must not leave a server behind (the chain's processes, then the server). */
export async function stopAll(): Promise<void> {
  for (const r of running.splice(0)) {
    if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGKILL');
    const pid = await Promise.race([r.serverPid, Promise.resolve(0)]);
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Fails with the output so far instead of hanging when an event never comes. */
export function within<T>(r: Running, what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms. Output:\n${r.output()}`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

export const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = tcpConnect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** Running, not a zombie: an orphan's exit status waits for a reaper that a container may lack. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};
