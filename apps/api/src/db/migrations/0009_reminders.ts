import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * What the reminder pass has sent (issue 16): one row per learner, course, cycle and kind, and one per
 * digest recipient and week. The primary keys are the guarantee that a rerun, a restart or a second
 * server process never sends the same mail twice: a mail goes out only after its row was inserted.
 * Managers and admins may turn their weekly digest off (`users.digest_mails`).
 */
export function remindersMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('reminder_deliveries')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('courses.id').onDelete('restrict'))
        .addColumn('cycle', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('sent_at', t.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('reminder_deliveries_pk', ['user_id', 'course_id', 'cycle', 'kind'] as never)
        .execute();
      await db.schema
        .createTable('digest_deliveries')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        // Monday of the ISO week, yyyy-mm-dd (UTC).
        .addColumn('week', 'text', (c) => c.notNull())
        .addColumn('sent', t.bool, (c) => c.notNull())
        .addColumn('sent_at', t.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('digest_deliveries_pk', ['user_id', 'week'] as never)
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('digest_mails', t.bool, (c) => c.notNull().defaultTo(t.trueValue))
        .execute();
    },
  };
}
