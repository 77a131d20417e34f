import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * SCORM packages as lessons (issue 34, docs/rules.md §SCORM packages):
 * - `lessons.kind`: 'lesson' (blocks) or 'scorm' (a package). A SCORM item is a lesson, so its name,
 *   publish switch, place in the module and completion record (`lesson_progress`) are a lesson's.
 * - `scorm_packages`: every version uploaded for a lesson (a replacement adds a version; learners'
 *   runs keep the version they played), with what its manifest says and where it is unpacked.
 * - `scorm_runs`: a learner's runtime data of one SCO of one version, one row per cycle (a new cycle
 *   starts a new row): status, score, times, location, suspend data and the rest of the CMI. Records:
 *   every reference restricts.
 */
export function scormMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  const big = kind === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('lessons')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('lesson'))
        .execute();
      await db.schema
        .createTable('scorm_packages')
        .addColumn('id', 'integer', t.id)
        .addColumn('lesson_id', 'integer', (c) => c.notNull().references('lessons.id').onDelete('restrict'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('standard', 'text', (c) => c.notNull())
        .addColumn('edition', 'text')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('scos', t.json, (c) => c.notNull())
        .addColumn('folder', 'text', (c) => c.notNull())
        .addColumn('original_filename', 'text', (c) => c.notNull())
        .addColumn('size', big, (c) => c.notNull())
        .addColumn('files', 'integer', (c) => c.notNull())
        .addColumn('unpacked_bytes', big, (c) => c.notNull())
        .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .addUniqueConstraint('scorm_packages_lesson_version', ['lesson_id', 'version'])
        .execute();
      await db.schema
        .createTable('scorm_runs')
        .addColumn('id', 'integer', t.id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('lesson_id', 'integer', (c) => c.notNull().references('lessons.id').onDelete('restrict'))
        .addColumn('package_id', 'integer', (c) => c.notNull().references('scorm_packages.id').onDelete('restrict'))
        .addColumn('sco', 'text', (c) => c.notNull())
        .addColumn('started_at', t.time, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('in_progress'))
        .addColumn('completion_status', 'text')
        .addColumn('success_status', 'text')
        .addColumn('score', 'integer')
        .addColumn('done_at', t.time)
        .addColumn('location', 'text')
        .addColumn('suspend_data', 'text')
        .addColumn('exit', 'text')
        .addColumn('total_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('session_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('launches', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cmi', t.json)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      // A learner's runs of a lesson, newest first (the lesson page, the course page, analytics).
      await db.schema
        .createIndex('scorm_runs_user_lesson_idx')
        .on('scorm_runs')
        .columns(['user_id', 'lesson_id', 'started_at'])
        .execute();
      // Learners of a version (the constructor's versions list).
      await db.schema
        .createIndex('scorm_runs_package_idx')
        .on('scorm_runs')
        .columns(['package_id', 'user_id'])
        .execute();
    },
  };
}
