import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/** What a course card shows of the course itself, outside any viewer (progress/keptCourses.ts). */
export const COURSE_CARD_TABLES = ['courses', 'course_categories', 'course_stats', 'group_courses'] as const;

/**
 * The catalogue and the home list show every live course, and reading and shaping those rows was most
 * of their cost (issue 14 item 6). A process keeps the viewer-free part of the rows and asks the
 * database only whether it still holds: `counters.course_cards_version` is raised by triggers on
 * every table the rows come from, in the writer's own transaction, so that every writer — services,
 * seeders, tests' helpers, another server process — makes the kept rows stale, and a rollback does not.
 */
export function courseCardsVersionMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`insert into counters (name, value) values ('course_cards_version', 1)`.execute(db);
      const bump = sql.raw(`update counters set value = value + 1 where name = 'course_cards_version'`);
      if (kind === 'sqlite') {
        // One writer at a time: raising it with each row locks nothing another writer waits for.
        for (const table of COURSE_CARD_TABLES)
          for (const op of ['insert', 'update', 'delete'])
            await sql`create trigger ${sql.raw(`${table}_cards_version_${op}`)} after ${sql.raw(op)}
              on ${sql.table(table)} begin ${bump}; end`.execute(db);
        return;
      }
      // At commit, once per transaction: the counter's row is locked only while its writer commits,
      // after every other lock the writer takes. Raised in the middle of a transaction, it would be
      // held from then on: every writer of these tables on any course would queue behind it, and two
      // writers could deadlock (one holding the counter and waiting for a course_stats row the other
      // holds while it waits for the counter).
      await sql`create function course_cards_version() returns trigger language plpgsql as $$
        begin
          -- Marked with the transaction's id: a setting left 'on' by a session or a database default
          -- cannot stop the raise.
          if current_setting('lms.course_cards_raised', true) is distinct from txid_current()::text then
            perform set_config('lms.course_cards_raised', txid_current()::text, true);
            ${bump};
          end if;
          return null;
        end $$`.execute(db);
      for (const table of COURSE_CARD_TABLES) {
        await sql`create constraint trigger ${sql.raw(`${table}_cards_version`)}
          after insert or update or delete on ${sql.table(table)} deferrable initially deferred
          for each row execute function course_cards_version()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_cards_version_truncate`)} after truncate on ${sql.table(table)}
          for each statement execute function course_cards_version()`.execute(db);
      }
    },
  };
}
