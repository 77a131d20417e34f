import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { link, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import { Checksum } from './manifest.js';

/** The copied database's facts for the manifest, read from the copy itself. */
export interface DatabaseFacts {
  schemaVersion: string;
  tables: Record<string, number>;
}

/** Where connect.ts keeps the database, and the files SQLite keeps beside it. */
const DB_FILE = 'app.db';
const SIDE_FILES = ['app.db-wal', 'app.db-shm'];

/**
 * Pages per step of the online backup: all of them. SQLite restarts a backup whenever another
 * connection writes between two steps, so with small steps a busy server could keep it from ever
 * finishing; one step reads one snapshot (in WAL mode the server's writers do not wait for it).
 */
const ALL_PAGES = 0x7fffffff;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

function describe(db: SQLite.Database): DatabaseFacts {
  const names = db
    .prepare<[], { name: string }>(
      "select name from sqlite_schema where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name",
    )
    .all()
    .map((r) => r.name);
  if (!names.includes('kysely_migration')) throw new Error('В базе нет таблицы миграций: это не база платформы');
  const last = db.prepare<[], { name: string }>('select name from kysely_migration order by name desc limit 1').get();
  const tables: Record<string, number> = {};
  for (const name of names) {
    tables[name] = db.prepare<[], { n: number }>(`select count(*) as n from ${quoted(name)}`).get()?.n ?? 0;
  }
  return { schemaVersion: last?.name ?? '', tables };
}

/**
 * Copies DATA_DIR/app.db to `target` with SQLite's online backup (better-sqlite3's `backup`): a
 * consistent copy while the server runs, WAL contents included. The copy is switched to a plain
 * rollback journal, so it is one self-contained file; the server puts it back into WAL at start.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<DatabaseFacts> {
  const file = join(dataDir, DB_FILE);
  if (!existsSync(file)) throw new Error(`Нет базы данных ${file}: проверьте DATA_DIR`);
  // Read-only: a backup never writes to the database it copies.
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // Owner-only before SQLite creates it with the umask's mode: it holds everything the database does.
    ensurePrivateFile(target);
    await source.backup(target, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return describe(copy);
  } finally {
    copy.close();
  }
}

/** Why DATA_DIR cannot take a restored database (it has one), or null. */
export function sqliteTargetProblem(dataDir: string): string | null {
  const found = [DB_FILE, ...SIDE_FILES].find((name) => existsSync(join(dataDir, name)));
  return found
    ? `В ${dataDir} уже есть база данных (${found}): восстановление идёт только в пустую папку данных, ничего не перезаписывается`
    : null;
}

/**
 * Puts the backup's database file in place as DATA_DIR/app.db: copied beside it under another name
 * with its checksum checked on the way, flushed, then linked to app.db, which fails rather than
 * replaces when app.db appeared meanwhile. The server finds either no database or the whole one.
 */
export async function restoreSqlite(
  dataDir: string,
  source: string,
  expected: { size: number; sha256: string },
): Promise<void> {
  ensurePrivateDir(dataDir);
  const target = join(dataDir, DB_FILE);
  const tmp = join(dataDir, `${DB_FILE}.restore-${randomBytes(6).toString('hex')}`);
  try {
    const sum = new Checksum();
    await pipeline(
      createReadStream(source),
      (chunks: AsyncIterable<Buffer>) => sum.pass(chunks),
      createWriteStream(tmp, { flags: 'wx', mode: PRIVATE_FILE_MODE }),
    );
    if (sum.size !== expected.size || sum.hex() !== expected.sha256) {
      throw new Error('Файл базы данных в копии изменился во время восстановления: контрольная сумма не совпала');
    }
    const handle = await open(tmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const problem = sqliteTargetProblem(dataDir);
    if (problem) throw new Error(problem);
    await link(tmp, target).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'EEXIST')
        throw new Error(sqliteTargetProblem(dataDir) ?? String(error));
      throw error;
    });
  } finally {
    await rm(tmp, { force: true });
  }
}
