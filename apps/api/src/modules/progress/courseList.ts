import type { Kysely } from 'kysely';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { deepFreeze } from '../../lib/kept.js';
import { liveCategory, liveCourse } from '../courses/live.js';
import type { CourseRules } from './engine.js';

/**
 * The course half of every viewer's course lists (the home page, the catalogue, a course's summary):
 * each live course with its category and kept totals, the same for every viewer. A process keeps it
 * (db/kept.ts `KEPT.courseList`): built per request it was most of the catalogue's cost, 205 courses
 * of thirty columns each, whatever the viewer had to do with them. Each view then reads only its own
 * learning-state rows (viewer.ts) and the version, in one statement.
 */
export interface ListedCourse extends CourseRules {
  title: string;
  description: string;
  image_path: string | null;
  category_id: number | null;
  /** The course's live category (null: none, or not live). */
  category_name: string | null;
  category_sort: number | null;
  learners: number;
  lessons_total: number;
  tests_total: number;
  /** Study groups the course is assigned to. */
  groups: number;
}

/** A live category, as the lists order them. */
export interface ListedCategory {
  id: number;
  name: string;
  sort_order: number;
}

export interface CourseList {
  /** `counters.course_list_version` the list was read at. */
  readonly version: number;
  /** Every live category in order, those without a live course too (the catalogue shows them). */
  readonly categories: readonly ListedCategory[];
  /** Live courses in catalogue order (sort order, id). */
  readonly courses: readonly ListedCourse[];
  readonly byId: ReadonlyMap<number, ListedCourse>;
}

/**
 * The version of the course list, read in the statement that needs it. Built, not written as SQL
 * text, so that kept.test.ts can see what the list's query reads.
 */
export const courseListVersion = (db: Kysely<Database>) =>
  db.selectFrom('counters').select('value').where('name', '=', 'course_list_version').$asScalar().as('list_version');

/**
 * Every live course with what the lists show of it, in one statement with the version it belongs
 * to. Its reads are declared in db/kept.ts (`KEPT.courseList`), whose triggers raise the version:
 * kept.test.ts compiles it and fails on a column the declaration does not name.
 */
export const courseListRows = new PreparedQuery([], (db) =>
  db
    .selectFrom('courses as c')
    .leftJoin('course_stats as cs', 'cs.course_id', 'c.id')
    .leftJoin('course_categories as cat', (j) => j.onRef('cat.id', '=', 'c.category_id').on(liveCategory('cat')))
    .select(courseListVersion(db))
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
      'cs.learners',
      'cs.lessons_total',
      'cs.tests_total',
      eb
        .selectFrom('group_courses as g')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('g.course_id', '=', 'c.id')
        .as('groups'),
    ])
    .where(liveCourse('c'))
    .orderBy('c.sort_order')
    .orderBy('c.id'),
);

/** The live categories in their order, read right after the courses (see `KeptCourseList.at`). */
export const liveCategoryRows = new PreparedQuery([], (db) =>
  db
    .selectFrom('course_categories as cat')
    .select(['cat.id', 'cat.name', 'cat.sort_order'])
    .where(liveCategory('cat'))
    .orderBy('cat.sort_order')
    .orderBy('cat.id'),
);

/** Keeps the latest committed course list; each read says which version it needs. */
export class KeptCourseList {
  #kept: CourseList | undefined;

  /** Without `inUnit` (an executor outside the app, maybe a transaction) nothing is kept. */
  constructor(private readonly uow: Pick<UnitOfWork, 'db'> & Partial<Pick<UnitOfWork, 'inUnit'>>) {}

  private get outsideTransaction(): boolean {
    return this.uow.inUnit === false;
  }

  /**
   * The list at `version` (read with the viewer's rows), kept or read afresh. Inside a transaction
   * its own uncommitted changes may not have raised the version yet (PostgreSQL raises it at commit),
   * so it reads what the transaction sees and keeps nothing.
   */
  async at(version: number): Promise<CourseList> {
    const kept = this.outsideTransaction ? this.#kept : undefined;
    if (kept?.version === version) return kept;
    const rows = await courseListRows.execute(this.uow.db, {});
    // Read after the courses, at their version or a later one: kept under the courses' version, a
    // list whose categories are newer is only read again sooner.
    const categories = await liveCategoryRows.execute(this.uow.db, {});
    const courses = rows.map((r): ListedCourse => ({
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
      learners: r.learners ?? 0,
      lessons_total: r.lessons_total ?? 0,
      tests_total: r.tests_total ?? 0,
      groups: Number(r.groups ?? 0),
    }));
    const list: CourseList = deepFreeze({
      // Without a course there is no row to say the version: the empty list is not kept.
      version: rows[0]?.list_version ?? -1,
      categories,
      courses,
      byId: new Map(courses.map((c) => [c.id, c])),
    });
    if (rows.length > 0 && this.outsideTransaction && list.version >= (this.#kept?.version ?? -1)) this.#kept = list;
    return list;
  }
}
