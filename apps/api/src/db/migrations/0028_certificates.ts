import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Certificates of completion (issue 35, docs/rules.md §Certificates):
 * - `certificate_settings`: per course, whether completing it issues a certificate, and the
 *   certificate's title, signer and logo (a stored file).
 * - `certificates`: one per learner, course and cycle, issued in the transaction that completes the
 *   course; what it says (name, course, dates, signer) is copied in, so deleting or renaming the
 *   learner or the course changes no certificate. A revocation is kept with its reason. Records:
 *   every reference restricts.
 */
export function certificatesMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('certificate_settings')
        .addColumn('course_id', 'integer', (c) => c.primaryKey().references('courses.id').onDelete('restrict'))
        .addColumn('enabled', t.bool, (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('signer_name', 'text')
        .addColumn('signer_position', 'text')
        .addColumn('logo_path', 'text')
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('certificates')
        .addColumn('id', 'integer', t.id)
        .addColumn('number', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('courses.id').onDelete('restrict'))
        .addColumn('cycle', 'integer', (c) => c.notNull())
        .addColumn('learner_name', 'text', (c) => c.notNull())
        // The name and number in lower case (Russian locale): the admin list's search on both databases.
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('course_title', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('signer_name', 'text')
        .addColumn('signer_position', 'text')
        .addColumn('logo_path', 'text')
        .addColumn('completed_at', t.time, (c) => c.notNull())
        .addColumn('valid_until', t.time)
        .addColumn('issued_at', t.time, (c) => c.notNull())
        .addColumn('revoked_at', t.time)
        .addColumn('revoked_by', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('revoke_reason', 'text')
        .addUniqueConstraint('certificates_user_course_cycle', ['user_id', 'course_id', 'cycle'])
        .execute();
      // The admin list, newest first, and one learner's certificates.
      await db.schema
        .createIndex('certificates_issued_idx')
        .on('certificates')
        .columns(['issued_at desc', 'id desc'])
        .execute();
      await db.schema
        .createIndex('certificates_user_idx')
        .on('certificates')
        .columns(['user_id', 'course_id'])
        .execute();
    },
  };
}
