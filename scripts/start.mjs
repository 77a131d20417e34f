#!/usr/bin/env node
// `npm start`: builds whatever is not built yet, then runs the server (migrations and the first
// administrator happen at server start). `npm run demo`: the same build, then loads demo data.
// `--no-build` runs what `npm run build` made (an image built ahead, or tests), checking nothing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const demo = process.argv.includes('--demo');
const build = !process.argv.includes('--no-build');

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(path)) {
    if (e === 'node_modules' || e === 'dist') continue;
    max = Math.max(max, newest(join(path, e)));
  }
  return max;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (build) {
  // The server: tsc -b is incremental and does nothing when the output is current.
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api']);

  const webIndex = join(root, 'apps/web/dist/index.html');
  const webSources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/build',
    'apps/web/public',
    'packages/contract/src',
  ];
  const webChanged = Math.max(...webSources.map((p) => newest(join(root, p))));
  if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webChanged) {
    console.log('Сборка веб-клиента...');
    run('npm', ['run', 'build', '-w', 'apps/web']);
  }
}

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' };
const entry = demo ? 'apps/api/dist/demo/cli.js' : 'apps/api/dist/server.js';
// The IPC channel tells the server when this process is gone, even when it is killed outright
// (SIGKILL cannot be forwarded); the server then shuts down instead of living on as an orphan.
const child = spawn(process.execPath, [join(root, entry)], {
  cwd: root,
  env,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
const stop = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
// Passed on at once. `npm start` runs this script as `exec node scripts/start.mjs` (package.json), so
// that npm's shell is replaced by it and npm's forwarded signal reaches it rather than the shell.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
// A closed terminal: the server's graceful stop, not the default action of SIGHUP (exit at once).
process.on('SIGHUP', () => stop('SIGTERM'));
child.on('exit', (code, signal) => {
  // A server killed by a signal did not finish its own shutdown: not a success.
  process.exit(code ?? (signal ? 1 : 0));
});
