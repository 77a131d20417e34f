import type { Expression, Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { liveCourse, publishedLiveItem } from '../courses/live.js';
import type { CourseRules, StoredState } from './engine.js';

/**
 * What one viewer's course lists need of the viewer, each in one indexed query over the maintained
 * tables: their learning-state rows (the course half, the same for everyone, is courseList.ts) and
 * their lesson records. A page view costs the same whatever the size of the company (issue 14 item 3:
 * at most three queries per home call). The rules stay in engine.ts; these queries only gather inputs.
 */

/** The viewer's stored state in a course, with the course list's version it was read with. */
interface ViewerStateRow {
  list_version: number | null;
  course_id: number | null;
  cycle: number | null;
  cycle_start: string | null;
  started_at: string | null;
  completed_at: string | null;
  lessons_completed: number | null;
  tests_completed: number | null;
  deadline: string | null;
  valid_until: string | null;
  enrolled_at: string | null;
  warning_at: string | null;
}

/**
 * The viewer's half of their course lists: their learning-state rows (there is one for every course
 * they are enrolled in or have a record of, states.ts), by the (user, course) index, and the version
 * of the course half (courseList.ts) in the same statement. The version's row is the left side, so
 * that a viewer without a row still learns it.
 */
function statesWithVersion(db: Kysely<Database>, userId: number, courseId?: number | Expression<number>) {
  return db
    .selectFrom('counters as v')
    .leftJoin('learning_states as s', (j) => {
      const mine = j.on('s.user_id', '=', userId);
      return courseId === undefined ? mine : mine.on('s.course_id', '=', courseId);
    })
    .select([
      'v.value as list_version',
      's.course_id',
      's.cycle',
      's.cycle_start',
      's.started_at',
      's.completed_at',
      's.lessons_completed',
      's.tests_completed',
      's.deadline',
      's.valid_until',
      's.enrolled_at',
      's.warning_at',
    ])
    .where('v.name', '=', 'course_list_version');
}

const courseIdOfTest = (db: Kysely<Database>, testId: number) =>
  db
    .selectFrom('tests as t')
    .innerJoin('modules as m', 'm.id', 't.module_id')
    .select('m.course_id')
    .where('t.id', '=', testId)
    .$asScalar();

const allStates = new PreparedQuery(['userId'], (db, { userId }: { userId: number }) => statesWithVersion(db, userId));
const stateInCourse = new PreparedQuery(
  ['userId', 'courseId'],
  (db, { userId, courseId }: { userId: number; courseId: number }) => statesWithVersion(db, userId, courseId),
);
const stateInCourseOfTest = new PreparedQuery(
  ['userId', 'testId'],
  (db, { userId, testId }: { userId: number; testId: number }) =>
    statesWithVersion(db, userId, courseIdOfTest(db, testId)).select(courseIdOfTest(db, testId).as('asked_course')),
);

/**
 * Which of the live courses: all, or one, named by its id or by one of its tests (whether or not the
 * viewer may see it).
 */
export type ViewerCourseChoice = { courseId?: number; courseOfTest?: number };

export interface ViewerStates {
  /** `counters.course_list_version`, read with the rows. */
  listVersion: number;
  /** The viewer's stored states by course. */
  states: Map<number, StoredState>;
  /** The one course asked for (`courseId`, or the course of `courseOfTest`); undefined: all, or no such test. */
  asked?: number | undefined;
}

/** The viewer's stored states, in all their courses or in the one chosen, with the list's version. */
export async function viewerStates(
  db: Kysely<Database>,
  userId: number,
  choice: ViewerCourseChoice = {},
): Promise<ViewerStates> {
  const { courseId, courseOfTest: testId } = choice;
  const rows: (ViewerStateRow & { asked_course?: number | null })[] = await (courseId !== undefined
    ? stateInCourse.execute(db, { userId, courseId })
    : testId !== undefined
      ? stateInCourseOfTest.execute(db, { userId, testId })
      : allStates.execute(db, { userId }));
  const states = new Map<number, StoredState>();
  for (const r of rows) {
    if (r.course_id === null || r.cycle === null) continue;
    states.set(r.course_id, {
      user_id: userId,
      course_id: r.course_id,
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
    });
  }
  const first = rows[0];
  const asked = courseId ?? first?.asked_course ?? undefined;
  return { listVersion: first?.list_version ?? -1, states, asked };
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
