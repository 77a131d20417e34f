import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/** The tables whose triggers raised `counters.users_list_version` (migration 0016). */
const LISTED_TABLES = ['users', 'departments', 'roles'] as const;

/**
 * What the employees search looks in, as one text per user: the name in both orders and the address,
 * each lower-cased as the search always was (`lower(first || ' ' || last)`, `lower(last || ' ' ||
 * first)`, `lower(email)`), one per line. A search is one line of text (the contract refuses control
 * characters), so it is a substring of this text exactly when it is a substring of one of the three.
 * `row` names the row (`new.` in a SQLite trigger, nothing in a PostgreSQL generated column).
 */
function searchText(row: string, newline: string): string {
  const [first, last, email] = ['first_name', 'last_name', 'email'].map((c) => `${row}${c}`);
  return `lower(${first} || ' ' || ${last}) || ${newline} || lower(${last} || ' ' || ${first}) || ${newline} || lower(${email})`;
}

/** PostgreSQL: only one migration at a time may install an extension of the database (tests migrate in parallel). */
const EXTENSION_LOCK = 310021;

/**
 * Issue 31: the employees list without its cache, and a search whose cost follows the users found,
 * not the company (every row was read through a per-row `lower()`: 28 requests/s, p99 4–6 s at
 * 10 000 employees).
 *
 * - `users_list_version` (0016) goes: its triggers, its PostgreSQL function (which also locked the
 *   course cards' counter row, only to keep the order of the two; 0020 dropped that one) and its
 *   counter row. A page is read afresh for each request.
 * - `users.search_text` holds what the search looks in (`searchText`) and is indexed for substrings:
 *   - SQLite: an FTS5 index with the trigram tokenizer over that column (external content: the text
 *     is stored once, in `users`), case-sensitive because the text is already lower-cased. Triggers
 *     write the column and the index with every insert, delete and change of a name or address,
 *     whoever writes (the services, seeders, tests' helpers), with the `lower()` the search used:
 *     the connection's Unicode one (db/connect.ts).
 *   - PostgreSQL: a generated column, indexed by `pg_trgm` (GIN, `LIKE '%…%'`) for live users. The
 *     extension (contrib, trusted since PostgreSQL 13) goes to schema `public` unless it is already
 *     installed elsewhere; the index names its operator class with that schema.
 */
export function usersSearchMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`delete from counters where name = 'users_list_version'`.execute(db);
      if (kind === 'sqlite') {
        for (const table of LISTED_TABLES)
          for (const op of ['insert', 'update', 'delete'])
            await sql`drop trigger if exists ${sql.raw(`${table}_list_version_${op}`)}`.execute(db);
        await sqliteSearch(db);
        return;
      }
      for (const table of LISTED_TABLES)
        for (const name of [`${table}_list_version`, `${table}_list_version_truncate`])
          await sql`drop trigger if exists ${sql.raw(name)} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists users_list_version()`.execute(db);
      await postgresSearch(db);
    },
  };
}

async function sqliteSearch(db: Kysely<unknown>): Promise<void> {
  const text = (row: string) => sql.raw(searchText(row, 'char(10)'));
  await sql`alter table users add column search_text text`.execute(db);
  await sql`update users set search_text = ${text('')}`.execute(db);
  await sql`create virtual table users_search using fts5(search_text, content='users', content_rowid='id',
    tokenize='trigram case_sensitive 1')`.execute(db);
  await sql`insert into users_search (users_search) values ('rebuild')`.execute(db);
  // An external-content index is told what to forget: exactly the text it was given.
  const forget = sql`insert into users_search (users_search, rowid, search_text) values ('delete', old.id, old.search_text)`;
  const write = sql`update users set search_text = ${text('new.')} where id = new.id;
    insert into users_search (rowid, search_text) values (new.id, ${text('new.')})`;
  await sql`create trigger users_search_insert after insert on users begin ${write}; end`.execute(db);
  await sql`create trigger users_search_update after update of first_name, last_name, email on users
    begin ${forget}; ${write}; end`.execute(db);
  await sql`create trigger users_search_delete after delete on users begin ${forget}; end`.execute(db);
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  const installedIn = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  let schema = await installedIn();
  if (schema === undefined) {
    await sql`select pg_advisory_xact_lock(${EXTENSION_LOCK})`.execute(db);
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    schema = (await installedIn()) ?? 'public';
  }
  await sql`alter table users add column search_text text
    generated always as (${sql.raw(searchText('', 'chr(10)'))}) stored`.execute(db);
  // A search reads all of the index's pending list (rows written since it was last merged). Up to the
  // default 4 MB that was ~500 pages: the planner then read every row instead (26 ms at 10 000 users
  // after a bulk insert, against 0.25 ms once merged). Bounded at 256 kB a bulk insert is still written
  // in batches (100 000 users in 8.6 s, against 7.2 s unbounded and 40 s without the list).
  await sql`create index users_search_trgm on users using gin (search_text ${sql.id(schema, 'gin_trgm_ops')})
    with (gin_pending_list_limit = 256) where deleted_at is null`.execute(db);
}
