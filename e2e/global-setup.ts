import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startServer } from './server.js';

export default async function globalSetup(): Promise<void> {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  writeFileSync(join(ROOT, 'e2e/.tmp-server.pid'), String(server.process.pid));
}
