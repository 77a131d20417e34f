import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/** The tables a start draws its questions from (courses/tests.ts `askable`). */
export const TEST_CONTENT_TABLES = ['test_questions', 'test_answers'] as const;

/**
 * A start draws its questions from the test's live questions and their options. A process keeps
 * those rows per test (courses/tests.ts) and uses them while `counters.test_contents_version` holds:
 * it is raised by triggers on both tables, in the writer's own transaction, so that every writer (the
 * constructor, a seeder, another server process) makes the kept rows stale, and a rollback does not.
 * One version for every test, as in 0013: per test, two transactions raising two tests in opposite
 * orders would deadlock at commit.
 *
 * The trigger functions of 0011 and 0013, and this one, name their tables unqualified: they are
 * pinned to the schema they were created in, so that a writer with another search_path neither fails
 * nor raises another schema's counter.
 */
export function testContentVersionMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`insert into counters (name, value) values ('test_contents_version', 1)`.execute(db);
      const bump = sql.raw(`update counters set value = value + 1 where name = 'test_contents_version'`);
      if (kind === 'sqlite') {
        // One writer at a time: raising it with each row locks nothing another writer waits for.
        for (const table of TEST_CONTENT_TABLES)
          for (const op of ['insert', 'update', 'delete'])
            await sql`create trigger ${sql.raw(`${table}_contents_version_${op}`)} after ${sql.raw(op)}
              on ${sql.table(table)} begin ${bump}; end`.execute(db);
        return;
      }
      for (const existing of ['users_live_count', 'course_cards_version'])
        await sql`alter function ${sql.raw(existing)}() set search_path from current`.execute(db);
      // At commit, once per transaction (as course_cards_version): the counter's row is locked only
      // while its writer commits, after every other lock the writer takes.
      await sql`create function test_contents_version() returns trigger language plpgsql
        set search_path from current as $$
        begin
          if current_setting('lms.test_contents_raised', true) is distinct from txid_current()::text then
            perform set_config('lms.test_contents_raised', txid_current()::text, true);
            ${bump};
          end if;
          return null;
        end $$`.execute(db);
      for (const table of TEST_CONTENT_TABLES) {
        await sql`create constraint trigger ${sql.raw(`${table}_contents_version`)}
          after insert or update or delete on ${sql.table(table)} deferrable initially deferred
          for each row execute function test_contents_version()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_contents_version_truncate`)} after truncate on ${sql.table(table)}
          for each statement execute function test_contents_version()`.execute(db);
      }
    },
  };
}
