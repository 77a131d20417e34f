import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Enrollments kept as rows (issue 14) instead of being derived from the three sources on every
 * request: one row per (user, course) with the earliest assignment time and the sources that give it.
 * Filled here from the sources with the same rule as `EnrollmentRepository.derive` (which keeps it
 * exact afterwards); written once, like every migration.
 */
export function enrollmentsMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('enrollments')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('courses.id').onDelete('restrict'))
        .addColumn('enrolled_at', t.time, (c) => c.notNull())
        .addColumn('direct', t.bool, (c) => c.notNull())
        .addColumn('by_department', t.bool, (c) => c.notNull())
        .addColumn('by_group', t.bool, (c) => c.notNull())
        .addPrimaryKeyConstraint('enrollments_pk', ['user_id', 'course_id'] as never)
        .execute();
      await db.schema
        .createIndex('enrollments_course_idx')
        .on('enrollments')
        .columns(['course_id', 'user_id'])
        .execute();
      await sql`
        insert into enrollments (user_id, course_id, enrolled_at, direct, by_department, by_group)
        select user_id, course_id, min(at), max(d) = 1, max(dep) = 1, max(g) = 1 from (
          select user_id, course_id, assigned_at as at, 1 as d, 0 as dep, 0 as g from user_courses
          union all
          select u.id, dc.course_id,
            case when coalesce(u.department_assigned_at, u.created_at) > dc.assigned_at
              then coalesce(u.department_assigned_at, u.created_at) else dc.assigned_at end, 0, 1, 0
          from department_courses dc join users u on u.department_id = dc.department_id
          where u.deleted_at is null
          union all
          select gu.user_id, gc.course_id,
            case when gu.added_at > gc.assigned_at then gu.added_at else gc.assigned_at end, 0, 0, 1
          from group_courses gc join group_users gu on gu.group_id = gc.group_id
        ) s
        group by user_id, course_id
      `.execute(db);
    },
  };
}
