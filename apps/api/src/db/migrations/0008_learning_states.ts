import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Learning state kept as rows (issue 14 item 2): one row per (user, course) that is enrolled or has a
 * record, holding what `progress/engine.ts` decides from the records, and per course its learner count
 * and published item totals. The rows are filled by `LearningStates.rebuild` after the migrations
 * (bootstrap.ts), with the code of that time, so that this migration stays what it was when written.
 */
export function learningStatesMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('learning_states')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('courses.id').onDelete('restrict'))
        .addColumn('cycle', 'integer', (c) => c.notNull())
        .addColumn('cycle_start', t.time)
        .addColumn('started_at', t.time)
        .addColumn('completed_at', t.time)
        .addColumn('lessons_completed', 'integer', (c) => c.notNull())
        .addColumn('tests_completed', 'integer', (c) => c.notNull())
        .addColumn('deadline', t.time)
        // The state holds until then (the next recurrence cycle opens); null: until the next event.
        .addColumn('valid_until', t.time)
        .addPrimaryKeyConstraint('learning_states_pk', ['user_id', 'course_id'] as never)
        .execute();
      await db.schema
        .createIndex('learning_states_course_idx')
        .on('learning_states')
        .columns(['course_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('learning_states_valid_until_idx')
        .on('learning_states')
        .column('valid_until')
        .execute();
      await db.schema.createIndex('learning_states_deadline_idx').on('learning_states').column('deadline').execute();
      await db.schema
        .createTable('course_stats')
        .addColumn('course_id', 'integer', (c) => c.primaryKey().references('courses.id').onDelete('restrict'))
        .addColumn('learners', 'integer', (c) => c.notNull())
        .addColumn('lessons_total', 'integer', (c) => c.notNull())
        .addColumn('tests_total', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
