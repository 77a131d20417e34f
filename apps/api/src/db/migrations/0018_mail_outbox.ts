import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * The mail log becomes the outbox (issue 30 item 23): every mail is a row from the moment it is
 * queued, with its status ('queued', 'sent', 'failed'), its sealed content until it is sent, the
 * number of tries, when the next may start and until when it is retried, the last failure's reason,
 * and the lease of the process delivering it. Rows logged before were delivered: they become 'sent'.
 *
 * `sent_at` may now be empty (not sent yet). SQLite cannot drop a NOT NULL, so there the table is
 * rebuilt with its rows and ids; nothing refers to it. The list's index now orders by the time a mail
 * was queued; the index of 0007 for "already reminded?" goes (reminder_deliveries answers that).
 */
export function mailOutboxMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres') {
        await sql`alter table mail_log alter column sent_at drop not null`.execute(db);
        await db.schema
          .alterTable('mail_log')
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('sent'))
          .addColumn('queued_at', t.time)
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', t.time)
          .addColumn('retry_until', t.time)
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', t.time)
          .addColumn('last_error', 'text')
          .addColumn('body', 'text')
          .execute();
        await sql`update mail_log set queued_at = sent_at, attempts = 1`.execute(db);
        await sql`alter table mail_log alter column queued_at set not null`.execute(db);
        await sql`alter table mail_log alter column status drop default`.execute(db);
      } else {
        await db.schema
          .createTable('mail_log_new')
          .addColumn('id', 'integer', t.id)
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('course_id', 'integer', (c) => c.references('courses.id').onDelete('restrict'))
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('queued_at', t.time, (c) => c.notNull())
          .addColumn('sent_at', t.time)
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', t.time)
          .addColumn('retry_until', t.time)
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', t.time)
          .addColumn('last_error', 'text')
          .addColumn('body', 'text')
          .execute();
        await sql`insert into mail_log_new (id, recipient, user_id, kind, course_id, subject, status, queued_at, sent_at, attempts)
          select id, recipient, user_id, kind, course_id, subject, 'sent', sent_at, sent_at, 1 from mail_log`.execute(
          db,
        );
        await db.schema.dropTable('mail_log').execute();
        await sql`alter table mail_log_new rename to mail_log`.execute(db);
      }
      if (kind === 'postgres') {
        await db.schema.dropIndex('mail_log_sent_idx').execute();
        // "Already reminded?" is answered by reminder_deliveries since 0009: nothing reads this one, and
        // every queued mail would pay for it.
        await db.schema.dropIndex('mail_log_user_course_idx').execute();
      }
      // The admin list: newest first by the time a mail was queued, one page at a time.
      await db.schema
        .createIndex('mail_log_queued_idx')
        .on('mail_log')
        .columns(['queued_at desc', 'id desc'])
        .execute();
      // The delivery pass: the queued mails whose next try is due, oldest first; a small index, since
      // only mails not yet sent or given up are in it.
      await db.schema
        .createIndex('mail_log_due_idx')
        .on('mail_log')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', 'queued')
        .execute();
    },
  };
}
