import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Config } from '../../config.js';
import type { DialectKind } from '../../db/dialect.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import { SCORM_PREFIX, UPLOADS_PREFIX } from '../../platform/fileStore/fileStore.js';
import { createFileStore } from '../../platform/fileStore/fromConfig.js';
import { copyFilesOut } from './files.js';
import { checksumOf, MANIFEST_FILE, MANIFEST_FORMAT, megabytes, SECRET_FILE, type Manifest } from './manifest.js';
import { backupPostgres, databaseName } from './postgres.js';
import { backupSqlite } from './sqlite.js';

/** The database the configuration names, as connect.ts decides it. */
export function databaseKind(config: Pick<Config, 'databaseUrl'>): DialectKind {
  if (!config.databaseUrl) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) return 'postgres';
  throw new Error('DATABASE_URL должен начинаться с postgres:// или postgresql://');
}

/** Where the secret lives when the server made it (platform/secret.ts). */
export const secretPath = (dataDir: string) => join(dataDir, 'app-secret');

/** A new folder, or an empty one: a backup never writes over another. Returns whether it was made here. */
async function emptyFolder(dir: string): Promise<boolean> {
  if (!existsSync(dir)) {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    return true;
  }
  const entries = await readdir(dir).catch(() => {
    throw new Error(`${dir} — не папка или недоступна`);
  });
  if (entries.length > 0)
    throw new Error(`Папка ${dir} не пуста: резервная копия пишется только в новую или пустую папку`);
  return false;
}

/**
 * The whole company into `dir` (docs/decisions.md §Backups): the database first, then the files.
 * Files are never changed once written, only added and, by the cleanup, removed when nothing refers
 * to them, so every file the copied database refers to is still there when the files are copied.
 * The manifest is written last; when anything fails, what was written is removed again.
 */
export async function takeBackup(config: Config, dir: string, say: (line: string) => void = () => {}) {
  const target = resolve(dir);
  const kind = databaseKind(config);
  if (config.storage.kind === 'folder') {
    // The folder store's own folders would be copied into themselves.
    for (const namespace of [UPLOADS_PREFIX, SCORM_PREFIX]) {
      const inside = resolve(config.dataDir, namespace);
      if (target === inside || target.startsWith(inside + sep)) {
        throw new Error(`Резервную копию нельзя класть в ${inside}: это папка самих файлов`);
      }
    }
  }
  const made = await emptyFolder(target);
  // The moment the copy is of: the database's, taken first.
  const createdAt = new Date().toISOString();
  try {
    // ── the database ──
    const file = kind === 'sqlite' ? 'database.sqlite' : 'database.dump';
    const facts =
      kind === 'sqlite'
        ? await backupSqlite(config.dataDir, join(target, file))
        : await backupPostgres(config.databaseUrl ?? '', join(target, file));
    const dbSum = await checksumOf(join(target, file));
    const rows = Object.values(facts.tables).reduce((a, b) => a + b, 0);
    say(
      `  база данных: ${kind === 'sqlite' ? `SQLite (${join(config.dataDir, 'app.db')})` : `PostgreSQL (${databaseName(config.databaseUrl ?? '')})`}` +
        ` → ${file}, ${megabytes(dbSum.size)}; схема ${facts.schemaVersion}, таблиц: ${Object.keys(facts.tables).length}, строк: ${rows}`,
    );

    // ── the key that signs CSRF tokens and seals queued mails ──
    let secret: Manifest['secret'] = { source: 'none' };
    if (config.appSecret) {
      secret = { source: 'APP_SECRET' };
      say('  ключ приложения: задан APP_SECRET — в копию не входит, храните его отдельно и задайте при восстановлении');
    } else if (existsSync(secretPath(config.dataDir))) {
      await writeFile(join(target, SECRET_FILE), await readFile(secretPath(config.dataDir)), {
        mode: PRIVATE_FILE_MODE,
        flag: 'wx',
      });
      secret = { source: 'file', file: SECRET_FILE, sha256: (await checksumOf(join(target, SECRET_FILE))).sha256 };
      say(`  ключ приложения: ${secretPath(config.dataDir)} → ${SECRET_FILE}`);
    }

    // ── the files, after the database ──
    const store = createFileStore(config);
    const items = await copyFilesOut(store, target);
    const bytes = items.reduce((sum, e) => sum + e.size, 0);
    say(`  файлы: ${items.length}, ${megabytes(bytes)} (${store.location})`);

    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      createdAt,
      schemaVersion: facts.schemaVersion,
      database: { kind, file, size: dbSum.size, sha256: dbSum.sha256, tables: facts.tables },
      secret,
      files: { location: store.location, count: items.length, bytes, items },
    };
    await writeFile(join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`, {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    });
    return manifest;
  } catch (error) {
    // Whatever was written goes, so that no half of a backup is taken for a backup.
    if (made) await rm(target, { recursive: true, force: true });
    else for (const entry of await readdir(target)) await rm(join(target, entry), { recursive: true, force: true });
    throw error;
  }
}
