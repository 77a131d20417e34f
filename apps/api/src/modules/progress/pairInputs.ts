import { sql, type Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { liveCourse, publishedLiveItem } from '../courses/live.js';
import type { CourseItems, CourseRules, StoredState } from './engine.js';
import type { UserRecords } from './repository.js';

/**
 * Everything `LearningStates.refresh` needs for one (user, course) pair, in one indexed statement
 * instead of the general path's six: every learner event (a lesson opened or completed, an attempt
 * started or finished) refreshes exactly one pair inside its transaction, and on PostgreSQL each
 * statement is a round trip the event's caller waits for. The statement gathers the same inputs as
 * `EnrollmentRepository.list`, `ProgressRepository.recordPairs` and `records`, and
 * `CoursesRepository.rules` and `publishedItems` (whose definitions they repeat, tables joined
 * the way `viewer.ts` does); the rules stay in engine.ts, and the property test of `states.test.ts`
 * compares the rows it leads to with the engine's recomputation.
 */
export interface PairInputs {
  /** The live course's rules; undefined when the course is deleted (the pair keeps no row). */
  course: CourseRules | undefined;
  enrolledAt: string | null;
  /** Whether the user has any record of an item of the course, whatever the item's state. */
  hasRecords: boolean;
  /** The pair's stored row before the refresh. */
  stored: StoredState | undefined;
  /** The course's published items in order, and the user's records of them. */
  items: CourseItems;
  records: UserRecords;
}

type Params = { userId: number; courseId: number };

/** The course's rules and deletion, the user's enrollment, whether they have records, their stored row. */
const pairFacts = (db: Kysely<Database>, { userId, courseId }: Params) =>
  db
    .selectFrom('courses as c')
    .leftJoin('learning_states as s', (j) => j.onRef('s.course_id', '=', 'c.id').on('s.user_id', '=', userId))
    .select((eb) => [
      'c.id',
      liveCourse('c').as('live'),
      'c.is_published',
      'c.accessibility',
      'c.has_deadline',
      'c.deadline_type',
      'c.deadline_value',
      'c.deadline_warning_days',
      'c.has_recurrence',
      'c.recurrence_value',
      eb
        .selectFrom('enrollments as e')
        .select('e.enrolled_at')
        .where('e.user_id', '=', userId)
        .whereRef('e.course_id', '=', 'c.id')
        .as('enrolled_at'),
      // A boolean on PostgreSQL, 0 or 1 on SQLite.
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('lesson_progress as r')
              .innerJoin('lessons as i', 'i.id', 'r.lesson_id')
              .innerJoin('modules as m', 'm.id', 'i.module_id')
              .select('r.id')
              .where('r.user_id', '=', userId)
              .whereRef('m.course_id', '=', 'c.id'),
          ),
          eb.exists(
            eb
              .selectFrom('test_attempts as r')
              .innerJoin('tests as i', 'i.id', 'r.test_id')
              .innerJoin('modules as m', 'm.id', 'i.module_id')
              .select('r.id')
              .where('r.user_id', '=', userId)
              .whereRef('m.course_id', '=', 'c.id'),
          ),
        ])
        .$castTo<boolean | number>()
        .as('has_records'),
      's.cycle',
      's.cycle_start',
      's.started_at',
      's.completed_at',
      's.lessons_completed',
      's.tests_completed',
      's.deadline',
      's.valid_until',
      's.enrolled_at as stored_enrolled_at',
      's.warning_at',
    ])
    .where('c.id', '=', courseId);

/**
 * The course's published lessons and tests of live modules, in module and item order, each with the
 * user's records of it (a row per record; one row with no record when there is none).
 */
const itemsWithRecords = (db: Kysely<Database>, { userId, courseId }: Params) =>
  db
    .selectFrom('modules as m')
    .innerJoin('lessons as i', 'i.module_id', 'm.id')
    .leftJoin('lesson_progress as r', (j) => j.onRef('r.lesson_id', '=', 'i.id').on('r.user_id', '=', userId))
    .select([
      sql<'lesson' | 'test'>`'lesson'`.as('type'),
      'i.id as item_id',
      'm.sort_order as module_sort',
      'm.id as module_id',
      'i.sort_order as item_sort',
      'r.id as record_id',
      'r.started_at as record_started_at',
      'r.completed_at as record_finished_at',
      sql<boolean | null>`null`.as('is_passed'),
    ])
    .where('m.course_id', '=', courseId)
    .where(publishedLiveItem('i', 'm'))
    .unionAll(
      db
        .selectFrom('modules as m')
        .innerJoin('tests as i', 'i.module_id', 'm.id')
        .leftJoin('test_attempts as r', (j) => j.onRef('r.test_id', '=', 'i.id').on('r.user_id', '=', userId))
        .select([
          sql<'lesson' | 'test'>`'test'`.as('type'),
          'i.id as item_id',
          'm.sort_order as module_sort',
          'm.id as module_id',
          'i.sort_order as item_sort',
          'r.id as record_id',
          'r.started_at as record_started_at',
          'r.finished_at as record_finished_at',
          'r.is_passed',
        ])
        .where('m.course_id', '=', courseId)
        .where(publishedLiveItem('i', 'm')),
    );

/** The facts' one row (none: no such course) joined to every item row (nulls: no published item). */
const pairRows = new PreparedQuery(['userId', 'courseId'], (db, params: Params) =>
  db
    .selectFrom(pairFacts(db, params).as('f'))
    .leftJoin(itemsWithRecords(db, params).as('it'), (j) => j.onTrue())
    .selectAll('f')
    .selectAll('it')
    .orderBy('it.module_sort')
    .orderBy('it.module_id')
    .orderBy('it.item_sort')
    .orderBy('it.item_id')
    .orderBy('it.record_id'),
);

export async function pairInputs(db: Kysely<Database>, userId: number, courseId: number): Promise<PairInputs> {
  const rows = await pairRows.execute(db, { userId, courseId });
  const items = { lessonIds: [] as number[], testIds: [] as number[] };
  const records: UserRecords = { lessons: new Map(), attempts: new Map() };
  const r = rows[0];
  if (!r) return { course: undefined, enrolledAt: null, hasRecords: false, stored: undefined, items, records };
  // A lesson and a test may share an id and a place, so their rows may interleave: each item once.
  const listed = { lessons: new Set<number>(), tests: new Set<number>() };
  for (const row of rows) {
    if (row.item_id === null) continue;
    const [seen, list] = row.type === 'lesson' ? [listed.lessons, items.lessonIds] : [listed.tests, items.testIds];
    if (!seen.has(row.item_id)) {
      seen.add(row.item_id);
      list.push(row.item_id);
    }
    if (row.record_id === null) continue;
    if (row.type === 'lesson')
      push(records.lessons, row.item_id, {
        started_at: row.record_started_at,
        completed_at: row.record_finished_at,
      });
    else
      push(records.attempts, row.item_id, {
        started_at: row.record_started_at as string,
        finished_at: row.record_finished_at,
        is_passed: row.is_passed,
      });
  }
  return {
    course: !r.live
      ? undefined
      : {
          id: r.id,
          is_published: r.is_published,
          accessibility: r.accessibility,
          has_deadline: r.has_deadline,
          deadline_type: r.deadline_type,
          deadline_value: r.deadline_value,
          deadline_warning_days: r.deadline_warning_days,
          has_recurrence: r.has_recurrence,
          recurrence_value: r.recurrence_value,
        },
    enrolledAt: r.enrolled_at,
    hasRecords: Number(r.has_records) > 0,
    stored:
      r.cycle === null
        ? undefined
        : {
            user_id: userId,
            course_id: courseId,
            cycle: r.cycle,
            cycle_start: r.cycle_start,
            started_at: r.started_at,
            completed_at: r.completed_at,
            lessons_completed: r.lessons_completed ?? 0,
            tests_completed: r.tests_completed ?? 0,
            deadline: r.deadline,
            valid_until: r.valid_until,
            enrolled_at: r.stored_enrolled_at,
            warning_at: r.warning_at,
          },
    items,
    records,
  };
}

function push<V>(map: Map<number, V[]>, key: number, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
