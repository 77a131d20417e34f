import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from './poll.js';
import { root } from './spawned.js';

/** Debian's nginx (`apt-get install nginx`; `.ci/run` installs it). */
export const NGINX = '/usr/sbin/nginx';
/** The configuration operators use, and so the one the tests run. */
export const NGINX_CONFIG = join(root, 'deploy/nginx.conf');

/**
 * deploy/nginx.conf (a part of the `http { }` block) with this machine's addresses — `listen` on
 * 127.0.0.1:`port`, one `server` line per address in the upstream (each with the options of the file's
 * first one) — inside the smallest main configuration that runs as this user in `dir`. Every other
 * line is kept as it is; a line it replaces that is missing throws, so that a change of the file cannot
 * make the test run something else than what operators get.
 */
export function nginxConfigFor(text: string, opts: { port: number; servers: string[]; dir: string }): string {
  const lines = text.split('\n');
  const at = (pattern: RegExp, what: string): number[] => {
    const found = lines.flatMap((line, i) => (pattern.test(line) ? [i] : []));
    if (found.length === 0) throw new Error(`deploy/nginx.conf has no ${what}`);
    return found;
  };
  const [listen, ...moreListens] = at(/^\s*listen\s+80;\s*$/, '`listen 80;` line');
  if (listen === undefined || moreListens.length > 0) throw new Error('deploy/nginx.conf must have one `listen 80;`');
  lines[listen] = (lines[listen] ?? '').replace('80;', `127.0.0.1:${opts.port};`);
  const servers = at(/^\s*server\s+[\d.]+:\d+\b.*;\s*$/, 'upstream `server` line');
  const [, indent = '', rest = ''] = /^(\s*)server\s+\S+?(\s.*)?;\s*$/.exec(lines[servers[0] ?? 0] ?? '') ?? [];
  const ours = opts.servers.map((address) => `${indent}server ${address}${rest};`);
  const dropped = new Set(servers);
  const part = lines.flatMap((line, i) => (i === servers[0] ? ours : dropped.has(i) ? [] : [line])).join('\n');
  const temp = (name: string) => join(opts.dir, name);
  return [
    // One process in the foreground, as the test's user: no worker switching to www-data.
    'daemon off;',
    'master_process off;',
    `pid ${temp('nginx.pid')};`,
    'error_log stderr warn;',
    'events { worker_connections 256; }',
    'http {',
    '    access_log off;',
    `    client_body_temp_path ${temp('body')};`,
    `    proxy_temp_path ${temp('proxy')};`,
    `    fastcgi_temp_path ${temp('fastcgi')};`,
    `    uwsgi_temp_path ${temp('uwsgi')};`,
    `    scgi_temp_path ${temp('scgi')};`,
    part,
    '}',
    '',
  ].join('\n');
}

export interface RunningNginx {
  /** Where clients send their requests: http://127.0.0.1:port. */
  url: string;
  /** nginx's warnings and errors (`error_log stderr`). */
  output(): string;
  stop(): Promise<void>;
}

/** `nginx -t` on the configuration: its verdict and what it printed. */
export function checkNginxConfig(config: string, dir: string): { ok: boolean; output: string } {
  const checked = spawnSync(NGINX, ['-t', '-p', dir, '-c', config], { encoding: 'utf8' });
  return { ok: checked.status === 0, output: `${checked.stdout}${checked.stderr}` };
}

/**
 * nginx in the foreground on the repo's configuration, listening on 127.0.0.1:`port` in front of
 * `servers` (host:port); resolves once it accepts connections.
 */
export async function startNginx(servers: string[], port: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'lms-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfigFor(readFileSync(NGINX_CONFIG, 'utf8'), { port, servers, dir }));
  const checked = checkNginxConfig(config, dir);
  if (!checked.ok) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx -t refused deploy/nginx.conf:\n${checked.output}`);
  }
  const proc: ChildProcess = spawn(NGINX, ['-p', dir, '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  proc.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!gone) proc.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pollUntil(
      'nginx listening',
      async () => {
        if (gone) throw new Error(`nginx exited:\n${out}`);
        // A connection, not a request: the processes behind it see nothing of the wait.
        return new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        });
      },
      30_000,
      () => out,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, output: () => out, stop };
}
