import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.js';

export default async function globalTeardown(): Promise<void> {
  const pidFile = join(ROOT, 'e2e/.tmp-server.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(pidFile);
  }
  if (process.env.E2E_DATA_DIR) rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
}
