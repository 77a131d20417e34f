import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import type { DialectKind } from '../../db/dialect.js';
import { migrationNames } from '../../db/migrate.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import { createFileStore } from '../../platform/fileStore/fromConfig.js';
import { backupPath, copyFilesIn, filesAlreadyThere } from './files.js';
import { checksumOf, megabytes, readManifest, SECRET_FILE, type Manifest } from './manifest.js';
import { databaseName, postgresTargetProblem, restorePostgres } from './postgres.js';
import { restoreSqlite, sqliteTargetProblem } from './sqlite.js';
import { databaseKind, secretPath } from './takeBackup.js';

const KIND_NAMES: Record<DialectKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** Every file of the backup against its manifest line, before anything is written anywhere. */
async function verify(dir: string, manifest: Manifest): Promise<void> {
  const check = async (label: string, path: string, expected: { size?: number; sha256: string }) => {
    if (!existsSync(path)) throw new Error(`В копии нет файла ${label}: она неполная`);
    const got = await checksumOf(path);
    if ((expected.size !== undefined && got.size !== expected.size) || got.sha256 !== expected.sha256) {
      throw new Error(`Файл ${label} в копии повреждён: контрольная сумма не совпадает с описью (manifest.json)`);
    }
  };
  await check(manifest.database.file, join(dir, manifest.database.file), manifest.database);
  if (manifest.secret.source === 'file') await check(SECRET_FILE, join(dir, SECRET_FILE), manifest.secret);
  for (const entry of manifest.files.items) await check(`files/${entry.key}`, backupPath(dir, entry.key), entry);
}

/** Whether the secret file can be written: absent, or the backup's own from a restore cut short. */
async function secretProblem(config: Config, dir: string): Promise<string | null> {
  const path = secretPath(config.dataDir);
  if (!existsSync(path)) return null;
  const [here, there] = await Promise.all([checksumOf(path), checksumOf(join(dir, SECRET_FILE))]);
  return here.sha256 === there.sha256
    ? null
    : `В ${config.dataDir} уже есть другой ключ приложения (app-secret): восстановление идёт только в пустую папку данных`;
}

/**
 * Brings a backup back (docs/decisions.md §Backups) into an empty target: no database in DATA_DIR
 * (SQLite) or an empty database (PostgreSQL), a store holding no other files. Refusals and a damaged
 * backup are found before anything is written. The files go first and the database last, in one
 * step (a link on SQLite, one transaction on PostgreSQL): a restore cut short leaves no database, and
 * run again it skips the files already copied.
 */
export async function restoreBackup(config: Config, dir: string, say: (line: string) => void = () => {}) {
  const source = resolve(dir);
  const manifest = await readManifest(source);
  const known = migrationNames();
  if (!known.includes(manifest.schemaVersion)) {
    throw new Error(
      `Копия сделана более новой версией платформы (схема ${manifest.schemaVersion}, эта версия знает до ${known.at(-1) ?? ''}): обновите платформу и повторите`,
    );
  }
  const kind = databaseKind(config);
  if (kind !== manifest.database.kind) {
    throw new Error(
      `В копии база ${KIND_NAMES[manifest.database.kind]}, а настроена ${KIND_NAMES[kind]}: восстанавливайте в базу того же вида (${manifest.database.kind === 'postgres' ? 'задайте DATABASE_URL' : 'уберите DATABASE_URL'})`,
    );
  }
  const url = config.databaseUrl ?? '';

  // ── refusals, before anything is written ──
  const problem = kind === 'sqlite' ? sqliteTargetProblem(config.dataDir) : await postgresTargetProblem(url);
  if (problem) throw new Error(problem);
  const writeSecret = manifest.secret.source === 'file' && !config.appSecret;
  const secretRefused = writeSecret ? await secretProblem(config, source) : null;
  if (secretRefused) throw new Error(secretRefused);
  await verify(source, manifest);
  const store = createFileStore(config);
  const there = await filesAlreadyThere(store, manifest.files.items);
  say(`  копия от ${manifest.createdAt}, схема ${manifest.schemaVersion}: контрольные суммы сверены`);

  // ── the files ──
  await copyFilesIn(store, source, manifest.files.items, there);
  say(
    `  файлы: ${manifest.files.count}, ${megabytes(manifest.files.bytes)} → ${store.location}` +
      (there.size > 0 ? ` (уже были на месте: ${there.size})` : ''),
  );

  // ── the key ──
  if (writeSecret && !existsSync(secretPath(config.dataDir))) {
    ensurePrivateDir(config.dataDir);
    await writeFile(secretPath(config.dataDir), await readFile(join(source, SECRET_FILE)), {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    });
  }
  if (writeSecret) say(`  ключ приложения → ${secretPath(config.dataDir)}`);
  else if (manifest.secret.source === 'file') {
    say('  ключ приложения из копии не записан: задан APP_SECRET (письма в очереди с прежним ключом не уйдут)');
  } else if (manifest.secret.source === 'APP_SECRET' && !config.appSecret) {
    say('  копия сделана с APP_SECRET: задайте то же значение APP_SECRET до запуска платформы');
  }

  // ── the database, last ──
  if (kind === 'sqlite') await restoreSqlite(config.dataDir, join(source, manifest.database.file), manifest.database);
  else await restorePostgres(url, join(source, manifest.database.file), manifest.database.tables);
  const rows = Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);
  say(
    `  база данных: ${kind === 'sqlite' ? `SQLite → ${join(config.dataDir, 'app.db')}` : `PostgreSQL → ${databaseName(url)}`}, строк: ${rows}`,
  );
  return manifest;
}
