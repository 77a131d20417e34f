import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { FolderStore } from './fileStore/folderStore.js';
import { createTransport } from './mail/transport.js';
import { loadAppSecret } from './secret.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** docs/rules.md §Data folder / issue 9: the data folder's secrets are readable by the server's own user only. */
describe('files under DATA_DIR are owner-only', () => {
  let previousUmask: number;
  let root: string;
  // The usual umask of a shell: without the fix everything below would be readable by others.
  beforeAll(() => {
    previousUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(previousUmask);
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'lms-private-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('app.db with its WAL and SHM files, the data folder and app-secret', async () => {
    const dataDir = join(root, 'data');
    const db = connect({ dataDir });
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const file = join(dataDir, 'app.db');
      expect(existsSync(`${file}-wal`)).toBe(true);
      expect(existsSync(`${file}-shm`)).toBe(true);
      expect([mode(dataDir), mode(file), mode(`${file}-wal`), mode(`${file}-shm`)]).toEqual([
        0o700, 0o600, 0o600, 0o600,
      ]);
    } finally {
      await db.close();
    }
    loadAppSecret(undefined, dataDir);
    expect(mode(join(dataDir, 'app-secret'))).toBe(0o600);
  });

  it('tightens a database and secret left readable by an older version', async () => {
    const dataDir = join(root, 'old');
    mkdirSync(dataDir, { recursive: true });
    const first = connect({ dataDir });
    await migrateToLatest(first.kysely, first.kind, first.schema);
    await first.close();
    chmodSync(join(dataDir, 'app.db'), 0o644);
    writeFileSync(join(dataDir, 'app-secret'), 'x'.repeat(64), { mode: 0o644 });
    const again = connect({ dataDir });
    await again.close();
    expect(mode(join(dataDir, 'app.db'))).toBe(0o600);
    expect(loadAppSecret(undefined, dataDir)).toBe('x'.repeat(64));
    expect(mode(join(dataDir, 'app-secret'))).toBe(0o600);
  });

  it('the storage and SCORM folders, also when they existed before', () => {
    const fresh = join(root, 'fresh');
    new FolderStore(fresh);
    expect(mode(join(fresh, 'storage'))).toBe(0o700);
    expect(mode(join(fresh, 'scorm'))).toBe(0o700);
    const old = join(root, 'old');
    mkdirSync(join(old, 'storage'), { recursive: true, mode: 0o755 });
    new FolderStore(old);
    expect(mode(join(old, 'storage'))).toBe(0o700);
  });

  it('the mail folder of the file transport and its .eml files', async () => {
    const dataDir = join(root, 'mail-data');
    await createTransport(loadConfig({ DATA_DIR: dataDir })).deliver({
      to: 'anna@example.com',
      subject: 'Код',
      html: '<p>123456</p>',
      text: '123456',
      audit: { kind: 'password_recovery', user_id: null, course_id: null },
    });
    const dir = join(dataDir, 'mail');
    expect(mode(dir)).toBe(0o700);
    const [eml] = readdirSync(dir);
    expect(mode(join(dir, eml ?? ''))).toBe(0o600);
  });
});
