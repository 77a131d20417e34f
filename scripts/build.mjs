// What `npm start`, `npm run demo` and `npm run bench:web` build before they run: the server, and the
// web client when its sources are newer than its build. One list of the client's sources, so that a
// new one (a folder, a config file) makes both rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'apps/web/public',
  'packages/contract/src',
];

/** The latest change time below `path` (dependencies and build output aside); 0 when it is missing. */
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

/** Runs a command in the repository; a failure ends this process with its status. */
function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Builds the server (tsc -b is incremental: nothing when current), and the client when `webDist` is stale. */
export function buildIfNeeded(webDist = join(root, 'apps/web/dist')) {
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api']);
  const webIndex = join(webDist, 'index.html');
  const webChanged = Math.max(...WEB_SOURCES.map((p) => newest(join(root, p))));
  if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webChanged) {
    console.log('Сборка веб-клиента...');
    run('npm', ['run', 'build', '-w', 'apps/web']);
  }
}
