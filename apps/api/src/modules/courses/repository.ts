import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { liveCourse, liveQuestion, publishedLiveItem } from './live.js';
import type { CourseItems, CourseRules } from '../progress/engine.js';

export interface CourseRow {
  id: number;
  title: string;
  description: string;
  image_path: string | null;
  is_published: boolean;
  category_id: number | null;
}

/** What the constructor may change on a course. */
export type CourseChange = Partial<{
  title: string;
  description: string;
  image_path: string | null;
  is_published: boolean;
  has_deadline: boolean;
  deadline_type: 'from_enrollment' | 'from_start';
  deadline_value: number;
  deadline_unit: string;
  deadline_warning_days: number;
  has_recurrence: boolean;
  recurrence_value: number;
  recurrence_unit: string;
  accessibility: 'everyone' | 'enrolled_only' | 'nobody';
}>;

export interface OutlineItem {
  id: number;
  type: 'lesson' | 'test';
  name: string;
  image_path: string | null;
  /** 'scorm' for a lesson holding a SCORM package; 'lesson' otherwise (tests too). */
  kind: 'lesson' | 'scorm';
}
export interface OutlineModule {
  id: number;
  name: string;
  items: OutlineItem[];
}

/** The course a stored file belongs to, and whether a learner may see the content that holds it. */
export interface FileReference {
  course_id: number;
  /** Published content of the course (a lesson, its blocks, a test), or the course's own image. */
  published: boolean;
  /** The course's own image (its cover). */
  cover: boolean;
}

/**
 * The one owner of the course content tables (courses, modules, lessons, lesson_contents, tests,
 * test_questions, test_answers): every query here sees live rows only (soft deletion, docs/rules.md §Deletion),
 * and "published items in their order" is defined here once for the engine and every screen.
 */
export class CoursesRepository {
  constructor(private readonly uow: Pick<UnitOfWork, 'db'>) {}

  private get db() {
    return this.uow.db;
  }

  private live() {
    return this.db.selectFrom('courses').where(liveCourse('courses'));
  }

  /** Live courses in catalogue order; all of them, or the given ids. */
  list(ids?: readonly number[]): Promise<CourseRow[]> {
    if (ids?.length === 0) return Promise.resolve([]);
    let q = this.live()
      .select(['id', 'title', 'description', 'image_path', 'is_published', 'category_id'])
      .orderBy('sort_order')
      .orderBy('id');
    if (ids) q = q.where('id', 'in', ids);
    return q.execute();
  }

  /** Every field of a live course the constructor shows and edits. */
  detail(id: number) {
    return this.live()
      .select([
        'id',
        'title',
        'description',
        'image_path',
        'is_published',
        'has_deadline',
        'deadline_type',
        'deadline_value',
        'deadline_unit',
        'deadline_warning_days',
        'has_recurrence',
        'recurrence_value',
        'recurrence_unit',
        'accessibility',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async update(id: number, change: CourseChange, now: string): Promise<void> {
    await this.db
      .updateTable('courses')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async exists(id: number): Promise<boolean> {
    return (await this.live().select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Those of the given ids that are live courses. */
  async existingIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    return (await this.live().select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  /** Id and title of the given live courses, by title (options of the settings forms). */
  titles(ids?: readonly number[]): Promise<{ id: number; title: string }[]> {
    if (ids?.length === 0) return Promise.resolve([]);
    let q = this.live().select(['id', 'title']).orderBy('title').orderBy('id');
    if (ids) q = q.where('id', 'in', ids);
    return q.execute();
  }

  /** What the learning engine needs of each live course. */
  rules(ids?: readonly number[]): Promise<CourseRules[]> {
    if (ids?.length === 0) return Promise.resolve([]);
    let q = this.live().select([
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
    if (ids) q = q.where('id', 'in', ids);
    return q.execute();
  }

  /** Published lessons and tests of live modules of each course, in module and item order. */
  async publishedItems(courseIds: readonly number[]): Promise<Map<number, CourseItems>> {
    const out = new Map<number, { lessonIds: number[]; testIds: number[] }>();
    for (const id of courseIds) out.set(id, { lessonIds: [], testIds: [] });
    if (courseIds.length === 0) return out;
    // Lessons and tests in one statement (every change of a learner's record refreshes with these).
    const rows = await this.liveModules(courseIds)
      .innerJoin('lessons as i', 'i.module_id', 'm.id')
      .select([
        'm.course_id',
        'i.id as item_id',
        sql<'lesson' | 'test'>`'lesson'`.as('type'),
        'm.sort_order as module_sort',
      ])
      .select(['m.id as module_id', 'i.sort_order as item_sort'])
      .where('i.is_published', '=', true)
      .where('i.deleted_at', 'is', null)
      .unionAll(
        this.liveModules(courseIds)
          .innerJoin('tests as i', 'i.module_id', 'm.id')
          .select([
            'm.course_id',
            'i.id as item_id',
            sql<'lesson' | 'test'>`'test'`.as('type'),
            'm.sort_order as module_sort',
          ])
          .select(['m.id as module_id', 'i.sort_order as item_sort'])
          .where('i.is_published', '=', true)
          .where('i.deleted_at', 'is', null),
      )
      .orderBy('module_sort')
      .orderBy('module_id')
      .orderBy('item_sort')
      .orderBy('item_id')
      .execute();
    for (const r of rows) {
      const items = out.get(r.course_id);
      if (items) (r.type === 'lesson' ? items.lessonIds : items.testIds).push(r.item_id);
    }
    return out;
  }

  private liveModules(courseIds: readonly number[]) {
    return this.db.selectFrom('modules as m').where('m.course_id', 'in', courseIds).where('m.deleted_at', 'is', null);
  }

  /**
   * The learner's outline of a course: live modules holding at least one published item, each with
   * its published lessons and tests merged into one list by their shared sort order.
   */
  async publishedOutline(courseId: number): Promise<OutlineModule[]> {
    const rows = await this.liveModules([courseId])
      .innerJoin('lessons as i', 'i.module_id', 'm.id')
      .select(['m.id as module_id', 'm.name as module_name', 'm.sort_order as module_sort'])
      .select(['i.id', 'i.name', 'i.image_path', 'i.sort_order', sql<'lesson' | 'test'>`'lesson'`.as('type')])
      .select('i.kind')
      .where('i.is_published', '=', true)
      .where('i.deleted_at', 'is', null)
      .unionAll(
        this.liveModules([courseId])
          .innerJoin('tests as i', 'i.module_id', 'm.id')
          .select(['m.id as module_id', 'm.name as module_name', 'm.sort_order as module_sort'])
          .select((eb) => [
            'i.id',
            'i.name',
            eb.cast<string | null>(eb.val(null), 'text').as('image_path'),
            'i.sort_order',
            sql<'lesson' | 'test'>`'test'`.as('type'),
            sql<'lesson' | 'scorm'>`'lesson'`.as('kind'),
          ])
          .where('i.is_published', '=', true)
          .where('i.deleted_at', 'is', null),
      )
      .orderBy('module_sort')
      .orderBy('module_id')
      .execute();
    // Modules in their order, each only with a published item; lessons and tests share one sort order.
    const modules = new Map<number, OutlineModule & { rows: typeof rows }>();
    for (const r of rows) {
      let m = modules.get(r.module_id);
      if (!m) modules.set(r.module_id, (m = { id: r.module_id, name: r.module_name, items: [], rows: [] }));
      m.rows.push(r);
    }
    return [...modules.values()].map(({ id, name, rows: items }) => ({
      id,
      name,
      items: items
        .sort((a, b) => a.sort_order - b.sort_order || (a.type === b.type ? a.id - b.id : a.type === 'lesson' ? -1 : 1))
        .map(({ id: itemId, type, name: itemName, image_path, kind }) => ({
          id: itemId,
          type,
          name: itemName,
          image_path,
          kind,
        })),
    }));
  }

  /** Every live course's title (the catalogue compares them with a Cyrillic-aware fold). */
  allTitles(): Promise<{ id: number; title: string }[]> {
    return this.live().select(['id', 'title']).execute();
  }

  async maxSortOrder(categoryId: number | null): Promise<number | null> {
    let q = this.live().select((eb) => eb.fn.max<number | null>('sort_order').as('max'));
    q = categoryId === null ? q.where('category_id', 'is', null) : q.where('category_id', '=', categoryId);
    return (await q.executeTakeFirst())?.max ?? null;
  }

  insert(input: { title: string; category_id: number | null; sort_order: number }, now: string) {
    return this.db
      .insertInto('courses')
      .values({ ...input, created_at: now, updated_at: now })
      .returning(['id', 'title', 'category_id'])
      .executeTakeFirstOrThrow();
  }

  /** Marks courses deleted; returns the ids that were live. Their content stays, unreachable. */
  async softDelete(filter: { ids?: readonly number[]; categoryId?: number }, now: string): Promise<number[]> {
    if (filter.ids?.length === 0) return [];
    let q = this.db.updateTable('courses').set({ deleted_at: now, updated_at: now }).where('deleted_at', 'is', null);
    if (filter.ids) q = q.where('id', 'in', filter.ids);
    if (filter.categoryId !== undefined) q = q.where('category_id', '=', filter.categoryId);
    return (await q.returning('id').execute()).map((r) => r.id);
  }

  /**
   * Which live courses reference a stored file, and whether through published content. Each content
   * table is asked by its own indexed-or-small lookup; a file is referenced by a handful of rows.
   */
  async fileReferences(path: string): Promise<FileReference[]> {
    const db = this.db;
    const [courses, lessons, blocks, answers] = await Promise.all([
      this.live().select('id as course_id').where('image_path', '=', path).execute(),
      db
        .selectFrom('lessons as l')
        .innerJoin('modules as m', 'm.id', 'l.module_id')
        .innerJoin('courses as c', 'c.id', 'm.course_id')
        .select(['m.course_id', publishedLiveItem('l', 'm').as('published')])
        .where('l.image_path', '=', path)
        .where(liveCourse('c'))
        .execute(),
      db
        .selectFrom('lesson_contents as b')
        .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
        .innerJoin('modules as m', 'm.id', 'l.module_id')
        .innerJoin('courses as c', 'c.id', 'm.course_id')
        .select(['m.course_id', publishedLiveItem('l', 'm').as('published')])
        .where('b.file_path', '=', path)
        .where(liveCourse('c'))
        .execute(),
      db
        .selectFrom('test_answers as a')
        .innerJoin('test_questions as q', 'q.id', 'a.question_id')
        .innerJoin('tests as t', 't.id', 'q.test_id')
        .innerJoin('modules as m', 'm.id', 't.module_id')
        .innerJoin('courses as c', 'c.id', 'm.course_id')
        .select(['m.course_id', publishedLiveItem('t', 'm').as('published')])
        .where('a.image_path', '=', path)
        .where(liveQuestion('q'))
        .where(liveCourse('c'))
        .execute(),
    ]);
    return [
      ...courses.map((c) => ({ course_id: c.course_id, published: true, cover: true })),
      ...[...lessons, ...blocks, ...answers].map((r) => ({
        course_id: r.course_id,
        // A boolean on PostgreSQL, 0 or 1 on SQLite.
        published: Number(r.published) === 1,
        cover: false,
      })),
    ];
  }
}
