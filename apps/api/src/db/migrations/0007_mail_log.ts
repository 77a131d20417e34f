import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Issue 16: every delivered mail is logged for admins (recipient, kind, user, course, time), and a
 * user may turn deadline reminder mails off (`users.reminder_mails`, on for everyone at first).
 * The log's rows keep their user and course (restricting keys; both are deleted softly).
 */
export function mailLogMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('mail_log')
        .addColumn('id', 'integer', t.id)
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('course_id', 'integer', (c) => c.references('courses.id').onDelete('restrict'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('sent_at', t.time, (c) => c.notNull())
        .execute();
      // The admin list: newest first, one page at a time.
      await db.schema.createIndex('mail_log_sent_idx').on('mail_log').columns(['sent_at desc', 'id desc']).execute();
      // "Was this reminder already sent to this user for this course since …" (the reminder jobs).
      await db.schema
        .createIndex('mail_log_user_course_idx')
        .on('mail_log')
        .columns(['user_id', 'course_id', 'kind', 'sent_at'])
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('reminder_mails', t.bool, (c) => c.notNull().defaultTo(t.trueValue))
        .execute();
    },
  };
}
