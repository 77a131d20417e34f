import type { InferResult, Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { liveCategory, liveCourse, publishedLiveItem } from '../courses/live.js';
import type { CourseRules, StoredState } from './engine.js';

/**
 * What one viewer's course lists need, each in one indexed query over the maintained tables: the
 * viewer's enrollment, learning-state row and the course's kept totals are joined to the course rows,
 * so a page view costs the same whatever the size of the company (issue 14 item 3: at most three
 * queries per home call). The rules stay in engine.ts; these queries only gather their inputs.
 */

/** A live course with the viewer's enrollment, stored state and the course's kept counts. */
export interface ViewerCourseRow extends CourseRules {
  title: string;
  description: string;
  image_path: string | null;
  category_id: number | null;
  /** The course's live category (null: none, or not live). */
  category_name: string | null;
  category_sort: number | null;
  enrolled_at: string | null;
  /** The viewer's stored state, absent when they have neither enrollment nor record. */
  state: StoredState | undefined;
  learners: number;
  lessons_total: number;
  tests_total: number;
  groups: number;
}

function viewerCourseSelect(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('courses as c')
    .leftJoin('enrollments as e', (j) => j.onRef('e.course_id', '=', 'c.id').on('e.user_id', '=', userId))
    .leftJoin('learning_states as s', (j) => j.onRef('s.course_id', '=', 'c.id').on('s.user_id', '=', userId))
    .leftJoin('course_stats as cs', 'cs.course_id', 'c.id')
    .leftJoin('course_categories as cat', (j) => j.onRef('cat.id', '=', 'c.category_id').on(liveCategory('cat')))
    .select((eb) => [
      'c.id',
      'c.title',
      'c.description',
      'c.image_path',
      'c.category_id',
      'c.is_published',
      'c.accessibility',
      'c.has_deadline',
      'c.deadline_type',
      'c.deadline_value',
      'c.deadline_warning_days',
      'c.has_recurrence',
      'c.recurrence_value',
      'cat.name as category_name',
      'cat.sort_order as category_sort',
      'e.enrolled_at',
      's.cycle',
      's.cycle_start',
      's.started_at',
      's.completed_at',
      's.lessons_completed',
      's.tests_completed',
      's.deadline',
      's.valid_until',
      's.warning_at',
      'cs.learners',
      'cs.lessons_total',
      'cs.tests_total',
      eb
        .selectFrom('group_courses as g')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('g.course_id', '=', 'c.id')
        .as('groups'),
    ])
    .where(liveCourse('c'));
}

function viewerCourseQuery(db: Kysely<Database>, userId: number) {
  return viewerCourseSelect(db, userId).orderBy('c.sort_order').orderBy('c.id');
}

type CourseRowRaw = InferResult<ReturnType<typeof viewerCourseSelect>>[number];

const allCourses = new PreparedQuery(['userId'], (db, { userId }: { userId: number }) => viewerCourseQuery(db, userId));
const visibleCourses = new PreparedQuery(['userId'], (db, { userId }: { userId: number }) =>
  viewerCourseQuery(db, userId)
    .where('c.is_published', '=', true)
    .where((eb) =>
      eb.or([
        eb('c.accessibility', '=', 'everyone'),
        eb.and([eb('c.accessibility', '=', 'enrolled_only'), eb('e.user_id', 'is not', null)]),
      ]),
    ),
);
const oneCourse = new PreparedQuery(
  ['userId', 'courseId'],
  (db, { userId, courseId }: { userId: number; courseId: number }) =>
    viewerCourseQuery(db, userId).where('c.id', '=', courseId),
);
const courseOfTest = new PreparedQuery(
  ['userId', 'testId'],
  (db, { userId, testId }: { userId: number; testId: number }) =>
    viewerCourseQuery(db, userId).where('c.id', '=', (eb) =>
      eb
        .selectFrom('tests as t')
        .innerJoin('modules as m', 'm.id', 't.module_id')
        .select('m.course_id')
        .where('t.id', '=', testId),
    ),
);

/**
 * Which of the live courses: all, those the viewer may see (`visibleOnly`), or one, named by its id or
 * by one of its tests (whether or not the viewer may see it).
 */
export interface ViewerCourseChoice {
  visibleOnly?: boolean;
  courseId?: number;
  courseOfTest?: number;
}

/**
 * The live courses in catalogue order (sort order, id) with the viewer's figures, as `opts` chooses. With `visibleOnly`,
 * only those `isVisible` can accept (published; everyone, or enrolled_only with an enrollment): the
 * caller still applies `isVisible`, which stays the rule.
 */
export async function viewerCourseRows(
  db: Kysely<Database>,
  userId: number,
  opts: ViewerCourseChoice = {},
): Promise<ViewerCourseRow[]> {
  const { courseId, courseOfTest: testId } = opts;
  const rows = await (courseId !== undefined
    ? oneCourse.execute(db, { userId, courseId })
    : testId !== undefined
      ? courseOfTest.execute(db, { userId, testId })
      : (opts.visibleOnly ? visibleCourses : allCourses).execute(db, { userId }));
  return rows.map((r) => rowOf(r, userId));
}

function rowOf(r: CourseRowRaw, userId: number): ViewerCourseRow {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    image_path: r.image_path,
    category_id: r.category_id,
    category_name: r.category_name,
    category_sort: r.category_sort,
    is_published: r.is_published,
    accessibility: r.accessibility,
    has_deadline: r.has_deadline,
    deadline_type: r.deadline_type,
    deadline_value: r.deadline_value,
    deadline_warning_days: r.deadline_warning_days,
    has_recurrence: r.has_recurrence,
    recurrence_value: r.recurrence_value,
    enrolled_at: r.enrolled_at,
    state:
      r.cycle === null
        ? undefined
        : {
            user_id: userId,
            course_id: r.id,
            cycle: r.cycle,
            cycle_start: r.cycle_start,
            started_at: r.started_at,
            completed_at: r.completed_at,
            lessons_completed: r.lessons_completed ?? 0,
            tests_completed: r.tests_completed ?? 0,
            deadline: r.deadline,
            valid_until: r.valid_until,
            enrolled_at: r.enrolled_at,
            warning_at: r.warning_at,
          },
    learners: r.learners ?? 0,
    lessons_total: r.lessons_total ?? 0,
    tests_total: r.tests_total ?? 0,
    groups: Number(r.groups ?? 0),
  };
}

/** One of the viewer's lesson records, with the lesson's card and its course's visibility inputs. */
export interface ViewerLessonRecord {
  lesson_id: number;
  started_at: string | null;
  completed_at: string | null;
  name: string;
  module: string;
  image_path: string | null;
  course_id: number;
  section: string;
  course_image: string | null;
  is_published: boolean;
  accessibility: CourseRules['accessibility'];
  enrolled_at: string | null;
  cycle: number | null;
  cycle_start: string | null;
  valid_until: string | null;
}

/**
 * The viewer's lesson records of published lessons in live modules of live courses (the items the
 * engine counts, as `CoursesRepository.publishedItems` defines them), by the (user, lesson) index.
 */
const lessonRecordsOfViewer = new PreparedQuery(['userId'], (db, { userId }: { userId: number }) =>
  db
    .selectFrom('lesson_progress as r')
    .innerJoin('lessons as l', 'l.id', 'r.lesson_id')
    .innerJoin('modules as m', 'm.id', 'l.module_id')
    .innerJoin('courses as c', 'c.id', 'm.course_id')
    .leftJoin('enrollments as e', (j) => j.onRef('e.course_id', '=', 'c.id').on('e.user_id', '=', userId))
    .leftJoin('learning_states as s', (j) => j.onRef('s.course_id', '=', 'c.id').on('s.user_id', '=', userId))
    .select([
      'r.lesson_id',
      'r.started_at',
      'r.completed_at',
      'l.name',
      'm.name as module',
      'l.image_path',
      'c.id as course_id',
      'c.title as section',
      'c.image_path as course_image',
      'c.is_published',
      'c.accessibility',
      'e.enrolled_at',
      's.cycle',
      's.cycle_start',
      's.valid_until',
    ])
    .where('r.user_id', '=', userId)
    .where(publishedLiveItem('l', 'm'))
    .where(liveCourse('c')),
);

export function viewerLessonRecords(db: Kysely<Database>, userId: number): Promise<ViewerLessonRecord[]> {
  return lessonRecordsOfViewer.execute(db, { userId });
}
