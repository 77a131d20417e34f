import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from './poll.js';
import { root } from './spawned.js';

/** Debian's haproxy (`apt-get install haproxy`; `.ci/run` installs it). */
export const HAPROXY = '/usr/sbin/haproxy';
/** The configuration operators use, and so the one the tests run. */
export const HAPROXY_CONFIG = join(root, 'deploy/haproxy.cfg');

/** A free TCP port of 127.0.0.1: the kernel picks one, which is released for the caller to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * deploy/haproxy.cfg with this machine's addresses: `bind` on 127.0.0.1:`port`, one `server` line per
 * address (each with the options of the file's first `server` line), the stats socket at `socket`, and
 * without `user` and `group` (they need root and Debian's haproxy user). Every other line is kept as
 * it is. Throws when a line it replaces is missing, so that a change of the file cannot make the test
 * run something else than what operators get.
 */
export function configFor(text: string, opts: { port: number; servers: string[]; socket: string }): string {
  const lines = text.split('\n');
  const at = (pattern: RegExp, what: string): number[] => {
    const found = lines.flatMap((line, i) => (pattern.test(line) ? [i] : []));
    if (found.length === 0) throw new Error(`deploy/haproxy.cfg has no ${what}`);
    return found;
  };
  const [bind, ...moreBinds] = at(/^\s*bind\s+:80\s*$/, '`bind :80` line');
  if (bind === undefined || moreBinds.length > 0) throw new Error('deploy/haproxy.cfg must have one `bind :80`');
  lines[bind] = (lines[bind] ?? '').replace(':80', `127.0.0.1:${opts.port}`);
  const [stats] = at(/^\s*stats socket \S+/, '`stats socket` line');
  lines[stats ?? 0] = (lines[stats ?? 0] ?? '').replace(/stats socket \S+/, `stats socket ${opts.socket}`);
  const servers = at(/^\s*server\s+\S+\s+\S+/, '`server` line');
  const [, indent = '', rest = ''] = /^(\s*)server\s+\S+\s+\S+(.*)$/.exec(lines[servers[0] ?? 0] ?? '') ?? [];
  const ours = opts.servers.map((address, i) => `${indent}server api${i + 1} ${address}${rest}`);
  const dropped = new Set([
    ...servers,
    ...lines.flatMap((line, i) => (/^\s*(user|group)\s+\S+\s*$/.test(line) ? [i] : [])),
  ]);
  return lines.flatMap((line, i) => (i === servers[0] ? ours : dropped.has(i) ? [] : [line])).join('\n');
}

/** A server of the balancer's backend as `show stat` tells it. */
export interface ServerState {
  name: string;
  /** UP, DOWN, 'UP 1/2' (going down), 'DOWN 1/2' (coming up), MAINT… */
  status: string;
  /** The last check's result: L7OK, L4CON (refused), L7STS (wrong status)… */
  check: string;
}

/** One command on HAProxy's stats socket; it answers and closes. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let out = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (out += chunk));
    client.on('end', () => resolve(out));
    client.on('error', reject);
    client.write(`${command}\n`);
  });
}

/** The servers of backend lms_api from `show stat`'s CSV. */
export function parseStat(csv: string): ServerState[] {
  const [header = '', ...rows] = csv.trim().split('\n');
  const columns = header.replace(/^#\s*/, '').split(',');
  const col = (name: string) => columns.indexOf(name);
  return rows
    .map((row) => row.split(','))
    .filter(
      (cells) => cells[col('pxname')] === 'lms_api' && !['FRONTEND', 'BACKEND'].includes(cells[col('svname')] ?? ''),
    )
    .map((cells) => ({
      name: cells[col('svname')] ?? '',
      status: cells[col('status')] ?? '',
      check: cells[col('check_status')] ?? '',
    }));
}

export interface RunningHaproxy {
  /** Where clients send their requests: http://127.0.0.1:port. */
  url: string;
  /** HAProxy's log (standard output: `log stdout` in the file) and its alerts. */
  output(): string;
  servers(): Promise<ServerState[]>;
  stop(): Promise<void>;
}

const running: RunningHaproxy[] = [];

/**
 * HAProxy in the foreground (`-db`) on the repo's configuration, listening on 127.0.0.1:`port` in
 * front of `servers` (host:port); resolves once its stats socket answers. Stopped by `stop()` or
 * `stopAllHaproxy()`.
 */
export async function startHaproxy(servers: string[], port: number): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'lms-haproxy-'));
  const socket = join(dir, 'admin.sock');
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, configFor(readFileSync(HAPROXY_CONFIG, 'utf8'), { port, servers, socket }));
  const proc: ChildProcess = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  proc.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    proc.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  const h: RunningHaproxy = {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    servers: async () => parseStat(await ask(socket, 'show stat')),
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.push(h);
  const started = await pollUntil(
    'haproxy answers on its stats socket',
    async () => (gone ? 'exited' : (await h.servers()).length === servers.length && 'up'),
    20_000,
    () => out,
  );
  if (started === 'exited') throw new Error(`haproxy stopped at start:\n${out}`);
  return h;
}

export async function stopAllHaproxy(): Promise<void> {
  await Promise.all(running.splice(0).map((h) => h.stop()));
}
