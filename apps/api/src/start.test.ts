import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as an operator runs it: the real build in apps/api/dist, spawned through npm and
 * scripts/start.mjs. Checks the printed address and that stopping any process of the chain stops
 * the server (issue 9: it used to be orphaned when npm was stopped).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Running {
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

function start(command: string, args: string[], env: Record<string, string> = {}): Running {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-start-'));
  dirs.push(dataDir);
  const base = { ...process.env };
  // The server of this test uses its own SQLite file, whatever the suite runs on.
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

/** Fails with the output so far instead of hanging when an event never comes. */
function within<T>(r: Running, what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms. Output:\n${r.output()}`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const refused = (url: string) =>
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
const alive = (pid: number) => {
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

describe('npm start', () => {
  beforeAll(() => {
    // Incremental: nothing to do when apps/api/dist is current (CI typechecks, and so builds, first).
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (tsc.status !== 0) throw new Error(`tsc -b apps/api failed:\n${tsc.stdout}${tsc.stderr}`);
  }, 240_000);

  afterEach(async () => {
    // A failed test must not leave a server behind: the chain's processes, then the server itself.
    for (const r of running.splice(0)) {
      if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGKILL');
      const pid = await Promise.race([r.serverPid, Promise.resolve(0)]);
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('prints the address it really listens on, and stopping npm stops the server', async () => {
    const r = start('npm', ['start', '--silent', '--', '--no-build']);
    const url = await within(r, 'start banner', r.url, 60_000);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    expect((await fetch(`${url}/api/config`)).status).toBe(200);
    const pid = await within(r, 'server pid', r.serverPid, 10_000);

    r.proc.kill('SIGTERM');
    await within(r, 'everything stopped', r.closed, 20_000);
    expect(r.output()).toContain('shutting down: finishing in-flight requests');
    expect(alive(pid)).toBe(false);
    expect(await refused(url)).toBe(true);
  }, 90_000);

  it('stopping start.mjs with SIGTERM stops the server, and killing it outright does too', async () => {
    const soft = start(process.execPath, ['scripts/start.mjs', '--no-build']);
    const softUrl = await within(soft, 'start banner', soft.url, 60_000);
    soft.proc.kill('SIGTERM');
    expect(await within(soft, 'stopped', soft.closed, 20_000)).toEqual({ code: 0, signal: null });
    expect(await refused(softUrl)).toBe(true);

    // SIGKILL cannot be forwarded: the server notices its IPC channel closing.
    const hard = start(process.execPath, ['scripts/start.mjs', '--no-build']);
    const hardUrl = await within(hard, 'start banner', hard.url, 60_000);
    const pid = await within(hard, 'server pid', hard.serverPid, 10_000);
    hard.proc.kill('SIGKILL');
    await within(hard, 'server stopped', hard.closed, 20_000);
    expect(hard.output()).toContain('parent exited');
    expect(alive(pid)).toBe(false);
    expect(await refused(hardUrl)).toBe(true);
  }, 120_000);

  it('exits by force when a request is still running after SHUTDOWN_TIMEOUT_MS', async () => {
    const r = start(process.execPath, ['apps/api/dist/server.js'], { SHUTDOWN_TIMEOUT_MS: '300' });
    const url = await within(r, 'start banner', r.url, 60_000);
    const { hostname, port } = new URL(url);
    // A request whose body never completes stays in flight for as long as the client likes.
    const socket = tcpConnect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    socket.write(
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"login":',
    );
    await within(
      r,
      'request received',
      new Promise<void>((resolve) => {
        const seen = () => (r.output().includes('incoming request') ? resolve() : undefined);
        seen();
        r.proc.stdout?.on('data', seen);
      }),
      10_000,
    );
    r.proc.kill('SIGTERM');
    expect(await within(r, 'forced exit', r.closed, 20_000)).toEqual({ code: 1, signal: null });
    expect(r.output()).toContain('requests still running after the drain time; exiting anyway');
    socket.destroy();
  }, 90_000);
});
