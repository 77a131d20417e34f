import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';
import { counterTriggers } from './counterTriggers.js';

/** A learner's own rows that their home page shows (progress/viewer.ts): each write changes their version. */
export const VIEWER_TABLES = ['enrollments', 'learning_states', 'lesson_progress'] as const;

/** What a started lesson's card shows of its lesson and module (viewer.ts `lessonRecordsOfViewer`). */
const LESSON_CARD_COLUMNS = {
  lessons: ['name', 'image_path', 'is_published', 'deleted_at', 'module_id'],
  modules: ['name', 'deleted_at', 'course_id'],
} as const;

/**
 * A learner's home page is the same answer for as long as their own rows, the course cards and the
 * time window hold (issue 14 item 6; home/keptAnswers.ts). The session lookup of the home calls reads
 * the learner's version with the course cards version, before anything else is read, so a kept answer
 * is used only while neither has moved.
 *
 * - `viewer_changes` holds each learner's version as the sum of its weights. Triggers on the learner's
 *   own tables add to it in the writer's own transaction, so every writer (services, seeders, another
 *   server process) moves it, and a rollback does not.
 *   - On SQLite (one writer at a time) a learner has one row, raised in place.
 *   - On PostgreSQL each statement appends rows and nothing is updated: a raise in place would lock the
 *     learner's row until commit, and two transactions writing for many learners (a course-wide
 *     refresh, a department's courses) in different orders would deadlock. A sum, unlike a sequence
 *     number, moves with every commit whatever the order of commits. The periodic job folds each
 *     learner's rows into one (`compactViewerChanges` in db/versions.ts).
 * - A started lesson's card shows its lesson's and module's names: their changes raise
 *   `counters.course_cards_version` with the function and at the moment of 0013 (one counter raised at
 *   commit, so no two commits wait for each other's counters in opposite orders).
 */
export function viewerVersionsMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const lessonCardTriggers = async () => {
        for (const [table, columns] of Object.entries(LESSON_CARD_COLUMNS))
          await counterTriggers(db, kind, {
            name: 'cards_version',
            table,
            columns,
            bump: `update counters set value = value + 1 where name = 'course_cards_version'`,
            pgFunction: 'course_cards_version',
          });
      };
      if (kind === 'sqlite') {
        await sql`create table viewer_changes (user_id integer primary key, weight integer not null)`.execute(db);
        const raise = (who: 'new' | 'old') =>
          sql.raw(`insert into viewer_changes (user_id, weight) values (${who}.user_id, 1)
            on conflict (user_id) do update set weight = weight + 1`);
        for (const table of VIEWER_TABLES) {
          await sql`create trigger ${sql.raw(`${table}_viewer_insert`)} after insert on ${sql.table(table)}
            begin ${raise('new')}; end`.execute(db);
          await sql`create trigger ${sql.raw(`${table}_viewer_update`)} after update on ${sql.table(table)}
            begin ${raise('new')}; ${raise('old')}; end`.execute(db);
          await sql`create trigger ${sql.raw(`${table}_viewer_delete`)} after delete on ${sql.table(table)}
            begin ${raise('old')}; end`.execute(db);
        }
        await lessonCardTriggers();
        return;
      }
      await sql`create table viewer_changes (user_id integer not null, weight bigint not null)`.execute(db);
      await sql`create index viewer_changes_user on viewer_changes (user_id) include (weight)`.execute(db);
      // Statement triggers with the changed rows as tables: one insert per statement, however many
      // learners a statement writes for.
      const appendFrom = (name: string, rows: string) =>
        sql`create function ${sql.raw(name)}() returns trigger language plpgsql set search_path from current as $$
          begin
            insert into viewer_changes (user_id, weight) select distinct user_id, 1 from (${sql.raw(rows)}) r;
            return null;
          end $$`.execute(db);
      await appendFrom('viewer_changes_inserted', 'select user_id from new_rows');
      await appendFrom('viewer_changes_deleted', 'select user_id from old_rows');
      await appendFrom('viewer_changes_updated', 'select user_id from new_rows union all select user_id from old_rows');
      await sql`create function viewer_changes_truncated() returns trigger language plpgsql
        set search_path from current as $$
          begin
            insert into viewer_changes (user_id, weight) select id, 1 from users;
            return null;
          end $$`.execute(db);
      for (const table of VIEWER_TABLES) {
        const t = sql.table(table);
        await sql`create trigger ${sql.raw(`${table}_viewer_insert`)} after insert on ${t}
          referencing new table as new_rows for each statement execute function viewer_changes_inserted()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_viewer_update`)} after update on ${t}
          referencing new table as new_rows old table as old_rows
          for each statement execute function viewer_changes_updated()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_viewer_delete`)} after delete on ${t}
          referencing old table as old_rows for each statement execute function viewer_changes_deleted()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_viewer_truncate`)} after truncate on ${t}
          for each statement execute function viewer_changes_truncated()`.execute(db);
      }
      await lessonCardTriggers();
    },
  };
}
