import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import type { DatabaseFacts } from './sqlite.js';

/**
 * PostgreSQL through its own tools (Debian's postgresql-client: `pg_dump`, `pg_restore` on PATH,
 * of the server's version or newer): the custom format keeps every object — tables, sequences'
 * values, indexes, triggers, the pg_trgm extension — and is restored in one transaction.
 */

/** The tools' connection: the address without its password, which goes in PGPASSWORD (not in `ps`). */
function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  // The tools run in the command's own environment (PATH, PGSSLMODE, ~/.pgpass…), plus the password.
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Which database, for messages: its name, never the address (it may hold a password). */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || '(по умолчанию)';
}

/** Runs one of the tools; a failure becomes its first error line (the command's one-line reason). */
function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv, stdout?: (text: string) => void) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    let errors = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => stdout?.(text));
    // Only the start is kept: the reason is in the first lines, and a long output must not grow memory.
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      if (errors.length < 16_384) errors += text;
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `Не найдена программа ${tool}: установите клиент PostgreSQL (postgresql-client) версии сервера или новее`,
            )
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const lines = errors.split('\n').map((l) => l.trim());
      const reason = lines.find((l) => /error|ошибка|fatal|важно/i.test(l)) ?? lines.find(Boolean) ?? `код ${code}`;
      reject(new Error(`${tool}: ${reason}`));
    });
  });
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') {
      throw new Error(`Базы данных ${databaseName(url)} нет: создайте её (createdb) или исправьте DATABASE_URL`);
    }
    throw error;
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of the platform's schema with their rows, and the last migration, as `client` sees them. */
async function describe(client: pg.Client): Promise<DatabaseFacts> {
  const names = (
    await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = current_schema() order by tablename',
    )
  ).rows.map((r) => r.name);
  if (!names.includes('kysely_migration')) throw new Error('В базе нет таблицы миграций: это не база платформы');
  const last = await client.query<{ name: string }>('select name from kysely_migration order by name desc limit 1');
  const tables: Record<string, number> = {};
  for (const name of names) {
    const counted = await client.query<{ n: string }>(`select count(*) as n from ${quoted(name)}`);
    tables[name] = Number(counted.rows[0]?.n ?? 0);
  }
  return { schemaVersion: last.rows[0]?.name ?? '', tables };
}

/**
 * `pg_dump -Fc` into `target`. The rows are counted in the very snapshot pg_dump copies: this
 * connection exports its snapshot and keeps its transaction open until pg_dump is done.
 */
export async function backupPostgres(url: string, target: string): Promise<DatabaseFacts> {
  const { dbname, env } = toolConnection(url);
  return withClient(url, async (client) => {
    await client.query('begin transaction isolation level repeatable read, read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id ?? '';
    const facts = await describe(client);
    // Owner-only before pg_dump writes it: it holds everything the database does.
    await writeFile(target, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await runTool(
      'pg_dump',
      ['--format=custom', '--no-password', `--snapshot=${snapshot}`, `--file=${target}`, `--dbname=${dbname}`],
      env,
    );
    await client.query('commit');
    return facts;
  });
}

/** Why the database cannot take a restore (it holds tables or other relations), or null. */
export async function postgresTargetProblem(url: string): Promise<string | null> {
  return withClient(url, async (client) => {
    const found = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_(toast|temp)'`,
    );
    const n = Number(found.rows[0]?.n ?? 0);
    return n > 0
      ? `База данных ${databaseName(url)} не пуста (таблиц и других объектов: ${n}): восстановление идёт только в пустую базу, ничего не перезаписывается. Создайте новую (createdb) и укажите её в DATABASE_URL`
      : null;
  });
}

/**
 * `pg_restore` of the dump in one transaction, stopping at the first error: the database gets all
 * of it or nothing. Objects belong to the restoring user (the platform's), whoever owned them before.
 * The extension's comment is left out: only the extension's owner may set it, and on a database
 * where an administrator created pg_trgm beforehand it would fail the whole restore. Then ANALYZE,
 * which pg_restore leaves out (plans need statistics), and the rows are counted against the manifest.
 */
export async function restorePostgres(url: string, dump: string, tables: Record<string, number>): Promise<void> {
  const { dbname, env } = toolConnection(url);
  let list = '';
  await runTool('pg_restore', ['--list', dump], env, (text) => (list += text));
  const kept = list.split('\n').filter((line) => !/^\d+;\s+\d+\s+\d+\s+COMMENT - EXTENSION /.test(line));
  // Beside the command, not in the backup folder (which may be read-only media).
  const listDir = await mkdtemp(join(tmpdir(), 'lms-restore-'));
  const listFile = join(listDir, 'objects.list');
  try {
    await writeFile(listFile, kept.join('\n'), { mode: PRIVATE_FILE_MODE });
    await runTool(
      'pg_restore',
      [
        '--single-transaction',
        '--exit-on-error',
        '--no-owner',
        '--no-privileges',
        '--no-password',
        `--use-list=${listFile}`,
        `--dbname=${dbname}`,
        dump,
      ],
      env,
    );
  } finally {
    await rm(listDir, { recursive: true, force: true });
  }
  await withClient(url, async (client) => {
    await client.query('analyze');
    const facts = await describe(client);
    for (const [table, rows] of Object.entries(tables)) {
      if (facts.tables[table] !== rows) {
        throw new Error(`После восстановления в таблице ${table} строк: ${facts.tables[table] ?? 0}, в копии: ${rows}`);
      }
    }
  });
}
