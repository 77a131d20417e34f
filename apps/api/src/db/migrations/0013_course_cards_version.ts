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
        for (const table of COURSE_CARD_TABLES)
          for (const op of ['insert', 'update', 'delete'])
            await sql`create trigger ${sql.raw(`${table}_cards_version_${op}`)} after ${sql.raw(op)}
              on ${sql.table(table)} begin ${bump}; end`.execute(db);
        return;
      }
      await sql`create function course_cards_version() returns trigger language plpgsql as $$
        begin ${bump}; return null; end $$`.execute(db);
      // Once per statement: a bulk change raises the version once, and holds the counter's row lock
      // only as long as its transaction, as any writer of these tables does.
      for (const table of COURSE_CARD_TABLES)
        await sql`create trigger ${sql.raw(`${table}_cards_version`)}
          after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function course_cards_version()`.execute(db);
    },
  };
}
