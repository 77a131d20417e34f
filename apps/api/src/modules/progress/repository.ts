import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AttemptRecord, CourseItems, CourseRules, LessonRecord } from './engine.js';

const CHUNK = 2000;
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** A learner's records by item id (what engine.courseState reads). */
export interface UserRecords {
  lessons: Map<number, LessonRecord[]>;
  attempts: Map<number, AttemptRecord[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Set-based loading for the engine: a fixed number of queries whatever the number of users and courses. */
export class ProgressRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async courseRules(courseIds?: readonly number[]): Promise<CourseRules[]> {
    if (courseIds?.length === 0) return [];
    let q = this.db
      .selectFrom('courses')
      .select([
        'id',
        'is_published',
        'accessibility',
        'has_deadline',
        'deadline_type',
        'deadline_value',
        'deadline_warning_days',
        'has_recurrence',
        'recurrence_value',
      ]);
    if (courseIds) q = q.where('id', 'in', courseIds);
    return q.execute();
  }

  /** Published lessons and tests of each course, in module and item order. */
  async publishedItems(
    courseIds: readonly number[],
  ): Promise<Map<number, CourseItems & { lessonIds: number[]; testIds: number[] }>> {
    const out = new Map<number, { lessonIds: number[]; testIds: number[] }>();
    for (const id of courseIds) out.set(id, { lessonIds: [], testIds: [] });
    if (courseIds.length === 0) return out;
    const [lessons, tests] = await Promise.all([
      this.db
        .selectFrom('lessons')
        .innerJoin('modules', 'modules.id', 'lessons.module_id')
        .select(['modules.course_id', 'lessons.id'])
        .where('modules.course_id', 'in', courseIds)
        .where('lessons.is_published', '=', true)
        .orderBy('modules.sort_order')
        .orderBy('lessons.sort_order')
        .orderBy('lessons.id')
        .execute(),
      this.db
        .selectFrom('tests')
        .innerJoin('modules', 'modules.id', 'tests.module_id')
        .select(['modules.course_id', 'tests.id'])
        .where('modules.course_id', 'in', courseIds)
        .where('tests.is_published', '=', true)
        .orderBy('modules.sort_order')
        .orderBy('tests.sort_order')
        .orderBy('tests.id')
        .execute(),
    ]);
    for (const l of lessons) out.get(l.course_id)?.lessonIds.push(l.id);
    for (const t of tests) out.get(t.course_id)?.testIds.push(t.id);
    return out;
  }

  /** Every lesson and test record of the given users, grouped by user (two queries per 2000 users). */
  async records(userIds: readonly number[]): Promise<Map<number, UserRecords>> {
    const out = new Map<number, UserRecords>();
    const of = (userId: number) => {
      let r = out.get(userId);
      if (!r) out.set(userId, (r = { lessons: new Map(), attempts: new Map() }));
      return r;
    };
    for (const users of chunks(userIds)) {
      const [lp, ta] = await Promise.all([
        this.db
          .selectFrom('lesson_progress')
          .select(['user_id', 'lesson_id', 'started_at', 'completed_at'])
          .where('user_id', 'in', users)
          .execute(),
        this.db
          .selectFrom('test_attempts')
          .select(['user_id', 'test_id', 'started_at', 'finished_at', 'is_passed'])
          .where('user_id', 'in', users)
          .execute(),
      ]);
      for (const r of lp) push(of(r.user_id).lessons, r.lesson_id, r);
      for (const r of ta) push(of(r.user_id).attempts, r.test_id, r);
    }
    return out;
  }
}
