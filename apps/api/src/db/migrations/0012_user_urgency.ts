import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Each user's most urgent enrolled course kept as a row (issue 15 item 4): the analytics overview of a
 * whole company reads one row per employee instead of ranking every enrollment per request. A row is
 * what the ranking of `progress/urgency.ts` decided at the time it was written, and holds until
 * `stable_until` (the first moment a deadline passes, a warning window opens or a recurrence cycle
 * ends among the user's rows; null: until the next event). It is rewritten with the user's learning
 * states, in their transaction, and by the periodic pass once `stable_until` is reached; a read
 * ranks the users whose row has expired itself. Derived data: no foreign keys to restrict anything.
 * The rows are written by `KeptRankings.rebuild` after the migrations (bootstrap.ts), which
 * marks in `counters` when it has finished, so that a start-up interrupted during it does it again.
 */
export function userUrgencyMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('user_urgency')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('course_id', 'integer')
        // 0 overdue, 1 almost overdue, 2 in order, null without a deadline.
        .addColumn('status', 'integer')
        .addColumn('deadline', t.time)
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('stable_until', t.time)
        .execute();
      await db.schema.createIndex('user_urgency_stable_until_idx').on('user_urgency').column('stable_until').execute();
      // Set to 1 once `KeptRankings.rebuild` has written every user's row (see bootstrap.ts).
      await sql`insert into counters (name, value) values ('user_urgency_built', 0)`.execute(db);
    },
  };
}
