import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * People changed in bulk and the audit of people changes (issue 32):
 * - `people_batches` and `people_batch_rows`: a dry run of an import or a directory sync, each row
 *   with what applying would do; applying re-plans from the stored input and must find the same plan.
 *   A batch holds no learning record: its rows go with it.
 * - `people_changes`: one row per change of an employee or of a course assignment, with who did it,
 *   from where, and the names as they were; nothing ever deletes or edits a row.
 * - `users.directory_id`: the directory entry's lasting id (objectGUID, entryUUID) of a person who
 *   came from the directory sync; unique among the people who have one. Null: added by hand or imported.
 * - `welcome_queue`: new employees whose invitation (a password by mail) is still to be sent; the
 *   background pass hashes the password outside the import's transaction and queues the mail in the
 *   same transaction that removes the row, so it goes once.
 */
export function peopleChangesMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('people_batches')
        .addColumn('id', 'integer', t.id)
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('applied_at', t.time)
        .addColumn('plan_options', t.json, (c) => c.notNull())
        .addColumn('plan_counts', t.json, (c) => c.notNull())
        .addColumn('new_departments', t.json, (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('people_batch_rows')
        .addColumn('batch_id', 'integer', (c) => c.notNull().references('people_batches.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('line', 'integer')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('field_changes', t.json, (c) => c.notNull())
        .addColumn('row_errors', t.json, (c) => c.notNull())
        .addColumn('person', t.json)
        .addPrimaryKeyConstraint('people_batch_rows_pk', ['batch_id', 'position'])
        .execute();
      // The screen's filter: one action's rows of a batch, in file order.
      await db.schema
        .createIndex('people_batch_rows_action_idx')
        .on('people_batch_rows')
        .columns(['batch_id', 'action', 'position'])
        .execute();
      await db.schema
        .createTable('people_changes')
        .addColumn('id', 'integer', t.id)
        .addColumn('at', t.time, (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('actor_name', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('batch_id', 'integer', (c) => c.references('people_batches.id').onDelete('restrict'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('subject_name', 'text', (c) => c.notNull())
        .addColumn('course_id', 'integer', (c) => c.references('courses.id').onDelete('restrict'))
        .addColumn('course_name', 'text')
        .addColumn('field_changes', t.json, (c) => c.notNull())
        .execute();
      // The audit page: newest first, a page at a time.
      await db.schema
        .createIndex('people_changes_at_idx')
        .on('people_changes')
        .columns(['at desc', 'id desc'])
        .execute();
      await db.schema
        .createIndex('people_changes_subject_idx')
        .on('people_changes')
        .columns(['subject', 'subject_id'])
        .execute();
      await db.schema.alterTable('users').addColumn('directory_id', 'text').execute();
      await db.schema
        .createIndex('users_directory_id_unique')
        .on('users')
        .column('directory_id')
        .unique()
        .where(sql.ref('directory_id'), 'is not', null)
        .execute();
      await db.schema
        .createTable('welcome_queue')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('restrict'))
        .addColumn('queued_at', t.time, (c) => c.notNull())
        .addColumn('site', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
