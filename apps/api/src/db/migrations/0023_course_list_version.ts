import type { Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';
import { createVersionTriggers, type Version } from '../kept.js';

/**
 * What the kept course list reads (db/kept.ts `KEPT.courseList`) when this migration was written,
 * copied rather than imported: a migration stays what it was whatever the list says later.
 */
const COURSE_LIST: Version = {
  counter: 'course_list_version',
  reads: {
    courses: [
      'id',
      'title',
      'description',
      'image_path',
      'category_id',
      'is_published',
      'accessibility',
      'has_deadline',
      'deadline_type',
      'deadline_value',
      'deadline_warning_days',
      'has_recurrence',
      'recurrence_value',
      'sort_order',
      'deleted_at',
    ],
    course_categories: ['id', 'name', 'sort_order', 'deleted_at'],
    course_stats: ['course_id', 'learners', 'lessons_total', 'tests_total'],
    group_courses: ['course_id'],
  },
};

/**
 * Issue 31: the course half of the viewers' lists (progress/courseList.ts) is kept per process while
 * `counters.course_list_version` holds; measured without it, the catalogue and the cold home page
 * missed their bounds (docs/performance.md). The triggers that raise it come from the declaration.
 */
export function courseListVersionMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createVersionTriggers(db, kind, COURSE_LIST);
    },
  };
}
