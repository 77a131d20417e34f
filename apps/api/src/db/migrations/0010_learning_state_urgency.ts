import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * What the analytics overview needs to rank a whole company's enrollments from one index (issue 15
 * item 4): each learning state also keeps its enrollment time (null for a pair kept only for its
 * records) and the moment its deadline's warning window opens, so the time-dependent status is a
 * comparison of stored times with now, without joining `enrollments` and `courses` row by row.
 * The index holds every column that ranking reads. The rows are rewritten by
 * `LearningStates.rebuild` after the migrations (bootstrap.ts), like those of 0008.
 */
export function learningStateUrgencyMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // One column per statement: SQLite adds columns one at a time.
      await db.schema.alterTable('learning_states').addColumn('enrolled_at', t.time).execute();
      await db.schema.alterTable('learning_states').addColumn('warning_at', t.time).execute();
      await db.schema
        .createIndex('learning_states_urgency_idx')
        .on('learning_states')
        .columns([
          'user_id',
          'deadline',
          'completed_at',
          'warning_at',
          'enrolled_at',
          'valid_until',
          'course_id',
          'lessons_completed',
          'tests_completed',
        ])
        .execute();
    },
  };
}
