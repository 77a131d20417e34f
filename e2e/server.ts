import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ADMIN = { email: 'admin@example.com', password: 'Admin-pass-2026' };
export const DEMO_PASSWORD = 'Demo-2026!';
export const LOGIN_DOMAIN = 'example.com';
export const COMPANY_NAME = 'ООО «Тест»';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
}

/**
 * Starts the built server (apps/api/dist) on a fresh data folder with the demo company loaded; on a
 * free port, or on `extraEnv.PORT` when a test must know the address first (a provider's redirect URI).
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-e2e-'));
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOGIN_DOMAIN,
    COMPANY_NAME,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const demo = spawnSync(process.execPath, [join(ROOT, 'apps/api/dist/demo/cli.js')], { env, encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(`demo load failed: ${demo.stderr}`);
  const child = spawn(process.execPath, [join(ROOT, 'apps/api/dist/server.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/api/config`)).ok) return { url, dataDir, process: child };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`server did not start:\n${output}`);
}
