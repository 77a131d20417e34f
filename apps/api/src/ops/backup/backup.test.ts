import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../bootstrap.js';
import { loadConfig } from '../../config.js';
import { migrationNames } from '../../db/migrate.js';
import { createFileStore } from '../../platform/fileStore/fromConfig.js';
import {
  demoInstallation,
  emptyInstallation,
  everyFile,
  everyRow,
  databaseUrl,
  onServer,
  PACKAGE_FILES,
  type Installation,
} from '../../test/companies.js';
import { dialectName } from '../../test/harness.js';
import { backupPath } from './files.js';
import { MANIFEST_FILE, type Manifest } from './manifest.js';
import { postgresTargetProblem } from './postgres.js';
import { restoreBackup } from './restoreBackup.js';
import { sqliteTargetProblem } from './sqlite.js';
import { takeBackup } from './takeBackup.js';

/** `npm run backup` and `npm run restore` in-process, on the suite's database (docs/decisions.md §Backups). */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const secretOf = (i: Installation) => join(i.config.dataDir, 'app-secret');
const files = (i: Installation) => everyFile(createFileStore(i.config));
/** Same-size damage: only the checksum can tell. */
const flipByte = (path: string) => {
  const bytes = readFileSync(path);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  writeFileSync(path, bytes);
};

/** No database, no key, no file: what a refused restore must leave. */
async function untouched(target: Installation): Promise<boolean> {
  const problem = target.config.databaseUrl
    ? await postgresTargetProblem(target.config.databaseUrl)
    : sqliteTargetProblem(target.config.dataDir);
  return problem === null && !existsSync(secretOf(target)) && Object.keys(await files(target)).length === 0;
}

describe(`backup and restore (${dialectName})`, () => {
  let source: Installation;
  let root: string;
  let backup: string;
  let manifest: Manifest;
  const said: string[] = [];
  const installations: Installation[] = [];
  const fresh = async () => {
    const made = await emptyInstallation();
    installations.push(made);
    return made;
  };

  beforeAll(async () => {
    source = await demoInstallation((config) => createFileStore(config));
    installations.push(source);
    root = mkdtempSync(join(tmpdir(), 'lms-backups-'));
    backup = join(root, 'backup');
    manifest = await takeBackup(source.config, backup, (line) => said.push(line));
  }, 60_000);

  afterAll(async () => {
    for (const i of installations) await i.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('describes the copy: format, time, schema version, database, rows of every table, every file', async () => {
    expect(manifest.format).toBe(1);
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(60_000);
    expect(manifest.schemaVersion).toBe(migrationNames().at(-1));
    expect(manifest.database.kind).toBe(dialectName);
    const rows = await everyRow(source);
    expect(Object.keys(manifest.database.tables)).toEqual(expect.arrayContaining(['users', 'courses', 'files']));
    for (const [table, count] of Object.entries(manifest.database.tables))
      expect(count, table).toBe(rows[table]?.length);
    expect(manifest.database.tables.users).toBeGreaterThan(5);
    const dump = readFileSync(join(backup, manifest.database.file));
    expect([manifest.database.size, manifest.database.sha256]).toEqual([dump.length, sha256(dump)]);

    const stored = await files(source);
    expect(manifest.files.items.map((e) => [e.key, e.sha256])).toEqual(Object.entries(stored));
    expect(Object.keys(stored)).toEqual(expect.arrayContaining(Object.keys(PACKAGE_FILES)));
    expect(Object.keys(stored).filter((k) => k.startsWith('storage/demo/')).length).toBeGreaterThan(3);
    expect(manifest.files).toMatchObject({
      location: source.config.dataDir,
      count: manifest.files.items.length,
      bytes: manifest.files.items.reduce((sum, e) => sum + e.size, 0),
    });
    for (const entry of manifest.files.items)
      expect(readFileSync(backupPath(backup, entry.key)).length).toBe(entry.size);
    expect(manifest.secret).toEqual({
      source: 'file',
      file: 'app-secret',
      sha256: sha256(readFileSync(secretOf(source))),
    });
    // It holds password hashes and the key: the owner's only.
    for (const path of [backup, join(backup, MANIFEST_FILE), join(backup, 'app-secret'), join(backup, 'files')]) {
      expect(statSync(path).mode & 0o077, path).toBe(0);
    }
    expect(said.join('\n')).toMatch(/база данных: .*схема 0\d+_\w+, таблиц: \d+, строк: \d+/);
  });

  it('restores into an empty target: every row of every table, every file, the key', async () => {
    const target = await fresh();
    const lines: string[] = [];
    await restoreBackup(target.config, backup, (line) => lines.push(line));
    const rows = await everyRow(source);
    expect(Object.keys(rows).length).toBeGreaterThan(40);
    expect(rows.users?.length).toBeGreaterThan(5);
    expect(await everyRow(target)).toEqual(rows);
    expect(await files(target)).toEqual(await files(source));
    expect(readFileSync(secretOf(target))).toEqual(readFileSync(secretOf(source)));
    expect(lines.join('\n')).toContain('контрольные суммы сверены');
    // The server's start on it finds the schema current: nothing to migrate.
    const db = target.connect();
    try {
      expect(await prepareDatabase(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.skipIf(dialectName !== 'postgres')(
    "restores as the database's owner (no superuser) where an administrator created pg_trgm beforehand",
    async () => {
      // As managed PostgreSQL services have it: extensions are the provider's, the platform owns its database.
      const name = `lms_owner_${randomBytes(4).toString('hex')}`;
      const role = { user: name, password: randomBytes(12).toString('hex') };
      const dataDir = mkdtempSync(join(tmpdir(), 'lms-owner-'));
      await onServer(`create role ${name} login password '${role.password}'`);
      try {
        await onServer(`create database ${name} owner ${name}`);
        await onServer('create extension pg_trgm', name);
        const target = { config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl(name, role) }) };
        await restoreBackup(target.config, backup);
        expect(await everyRow(target)).toEqual(await everyRow(source));
      } finally {
        await onServer(`drop database if exists ${name} with (force)`);
        await onServer(`drop role if exists ${name}`);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('refuses a target that holds data, and changes nothing there', async () => {
    const before = { rows: await everyRow(source), files: await files(source), key: readFileSync(secretOf(source)) };
    const refusal = dialectName === 'sqlite' ? /уже есть база данных \(app\.db\)/ : /не пуста/;
    await expect(restoreBackup(source.config, backup)).rejects.toThrow(refusal);
    expect(await everyRow(source)).toEqual(before.rows);
    expect(await files(source)).toEqual(before.files);
    expect(readFileSync(secretOf(source))).toEqual(before.key);

    // A database the server has only started on (the schema, the first rows) is not empty either.
    const started = await fresh();
    const db = started.connect();
    await prepareDatabase(db);
    await db.close();
    const schemaOnly = await everyRow(started);
    await expect(restoreBackup(started.config, backup)).rejects.toThrow(refusal);
    expect(await everyRow(started)).toEqual(schemaOnly);
    expect(await files(started)).toEqual({});
  });

  it('refuses a store holding other files, or another key, before writing anything', async () => {
    const target = await fresh();
    const store = createFileStore(target.config);
    await store.write('storage/lessons/other.pdf', Readable.from([Buffer.from('other')]));
    await expect(restoreBackup(target.config, backup)).rejects.toThrow(/уже есть другие файлы \(например, storage\//);
    expect(Object.keys(await files(target))).toEqual(['storage/lessons/other.pdf']);
    await store.remove('storage/lessons/other.pdf');
    expect(await untouched(target)).toBe(true);

    writeFileSync(secretOf(target), 'another key of another installation');
    await expect(restoreBackup(target.config, backup)).rejects.toThrow(/другой ключ приложения/);
    expect(readFileSync(secretOf(target), 'utf8')).toBe('another key of another installation');
    expect(Object.keys(await files(target))).toEqual([]);
  });

  it('refuses a damaged or unfinished backup, writing nothing', async () => {
    const firstFile = manifest.files.items.find((e) => e.key.startsWith('storage/'))?.key ?? '';
    const damages: [string, (copy: string) => void, RegExp][] = [
      [
        'a file',
        (copy) => flipByte(backupPath(copy, firstFile)),
        /Файл files\/storage\/.* повреждён: контрольная сумма/,
      ],
      ['the database', (copy) => flipByte(join(copy, manifest.database.file)), /database\.\w+ в копии повреждён/],
      ['the key', (copy) => writeFileSync(join(copy, 'app-secret'), 'x'), /app-secret в копии повреждён/],
      ['a missing file', (copy) => rmSync(backupPath(copy, firstFile)), /В копии нет файла files\/storage\//],
      ['no manifest', (copy) => rmSync(join(copy, MANIFEST_FILE)), /нет manifest\.json/],
      [
        'a newer version',
        (copy) =>
          writeFileSync(join(copy, MANIFEST_FILE), JSON.stringify({ ...manifest, schemaVersion: '9999_later' })),
        /более новой версией платформы/,
      ],
    ];
    for (const [what, damage, refusal] of damages) {
      const copy = join(root, `damaged-${what.replace(/ /g, '-')}`);
      cpSync(backup, copy, { recursive: true });
      damage(copy);
      const target = await fresh();
      await expect(restoreBackup(target.config, copy), what).rejects.toThrow(refusal);
      expect(await untouched(target), what).toBe(true);
    }
  });

  it('never writes a backup over another', async () => {
    await expect(takeBackup(source.config, backup)).rejects.toThrow(/не пуста/);
    expect(JSON.parse(readFileSync(join(backup, MANIFEST_FILE), 'utf8'))).toEqual(manifest);
    // Inside the store's own folder it would copy itself.
    await expect(takeBackup(source.config, join(source.config.dataDir, 'storage', 'b'))).rejects.toThrow(
      /папка самих файлов/,
    );
    expect(existsSync(join(source.config.dataDir, 'storage', 'b'))).toBe(false);
  });
});
