#!/usr/bin/env node
// `npm start`: builds whatever is not built yet, then runs the server (migrations and the first
// administrator happen at server start). `npm run demo`: the same build, then loads demo data.
// `--no-build` runs what `npm run build` made (an image built ahead, or tests), checking nothing.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIfNeeded, root } from './build.mjs';

const demo = process.argv.includes('--demo');
if (!process.argv.includes('--no-build')) buildIfNeeded();

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
