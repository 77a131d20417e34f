import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App } from '../app.js';
import { prepareDatabase } from '../bootstrap.js';
import { loadConfig, type Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { migrateTo } from '../db/migrate.js';
import { ManualClock } from '../platform/clock.js';
import type { FileStore } from '../platform/fileStore/fileStore.js';
import { createFileStore } from '../platform/fileStore/fromConfig.js';
import type { MailTransport } from '../platform/mail/mailer.js';
import { CapturingTransport } from './mail.js';
import { createTestDb } from './harness.js';

export interface OpsApp {
  app: App;
  db: Db;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

/**
 * A test app as `createTestApp` builds it, with what the health and metrics tests replace: the file
 * store, the mail transport, or a database migrated only up to `migratedTo`.
 */
export async function opsApp(
  opts: {
    env?: Record<string, string>;
    /** The store the app gets, made from the one the config names (e.g. with another probe). */
    store?: (configured: FileStore) => FileStore;
    mailTransport?: MailTransport;
    /** The last migration applied (an older schema than the code's). */
    migratedTo?: string;
  } = {},
): Promise<OpsApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-ops-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOGIN_DOMAIN: 'example.com',
    WEB_DIST: join(dataDir, 'no-web'),
    ...opts.env,
  });
  const { db, drop } = await createTestDb();
  if (opts.migratedTo) await migrateTo(db.kysely, db.kind, opts.migratedTo, db.schema);
  else await prepareDatabase(db);
  const clock = new ManualClock();
  const app = await buildApp({
    config,
    db,
    clock,
    secret: 'test-secret-0123456789-0123456789',
    mailTransport: opts.mailTransport ?? new CapturingTransport(),
    fileStore: (opts.store ?? ((store) => store))(createFileStore(config)),
  });
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    close: async () => {
      await app.close();
      // A test may have closed the database already: closing again changes nothing.
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The store with another probe (a bucket that fails or hangs). */
export function withProbe(store: FileStore, probe: () => Promise<void>): FileStore {
  return {
    kind: store.kind,
    location: store.location,
    write: (key, body, options) => store.write(key, body, options),
    open: (key) => store.open(key),
    remove: (key) => store.remove(key),
    list: (prefix) => store.list(prefix),
    probe,
  };
}
