import { rmSync } from 'node:fs';
import { startServer } from './server.js';

/** Starts one server for the run; the returned function (Playwright's teardown) stops it. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    server.process.kill('SIGTERM');
    await new Promise((r) => server.process.once('exit', r).once('error', r));
    rmSync(server.dataDir, { recursive: true, force: true });
  };
}
