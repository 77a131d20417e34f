import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/** The tables whose triggers raised `viewer_changes` (0015). */
const VIEWER_TABLES = ['enrollments', 'learning_states', 'lesson_progress'] as const;
/** The tables whose triggers raised `counters.course_cards_version` (0013, and 0015 for the last two). */
const COURSE_CARD_TABLES = ['courses', 'course_categories', 'course_stats', 'group_courses', 'lessons', 'modules'];

/**
 * Issue 31: the home answers kept per viewer and the course rows kept per process are gone (a page
 * view reads its rows afresh, by index), and with them what said whether they still held: the
 * per-learner `viewer_changes` sums and `counters.course_cards_version`, with every trigger that
 * raised them. Only these caches' own table, row and triggers are dropped; no learning record is
 * touched. Written with the names 0013 and 0015 gave them, so that it stays what it is whatever
 * later code declares.
 */
export function dropViewerVersionsMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const dropTrigger = (name: string, table: string) =>
        kind === 'sqlite'
          ? sql`drop trigger ${sql.raw(name)}`.execute(db)
          : sql`drop trigger ${sql.raw(name)} on ${sql.table(table)}`.execute(db);
      for (const table of VIEWER_TABLES) {
        for (const op of ['insert', 'update', 'delete']) await dropTrigger(`${table}_viewer_${op}`, table);
        if (kind === 'postgres') await dropTrigger(`${table}_viewer_truncate`, table);
      }
      for (const table of COURSE_CARD_TABLES) {
        if (kind === 'sqlite') {
          for (const op of ['insert', 'update', 'delete']) await dropTrigger(`${table}_cards_version_${op}`, table);
        } else {
          await dropTrigger(`${table}_cards_version`, table);
          await dropTrigger(`${table}_cards_version_truncate`, table);
        }
      }
      if (kind === 'postgres') {
        for (const fn of [
          'viewer_changes_inserted',
          'viewer_changes_deleted',
          'viewer_changes_updated',
          'viewer_changes_truncated',
          'course_cards_version',
        ])
          await sql`drop function ${sql.raw(fn)}()`.execute(db);
      }
      await sql`drop table viewer_changes`.execute(db);
      await sql`delete from counters where name = 'course_cards_version'`.execute(db);
    },
  };
}
