import type { UnitOfWork } from '../../db/unitOfWork.js';

export type ItemType = 'lesson' | 'test';

export interface ModuleRow {
  id: number;
  course_id: number;
  name: string;
  sort_order: number;
  is_published: boolean;
  published_at: string | null;
}

export interface ItemRow {
  id: number;
  module_id: number;
  name: string;
  is_published: boolean;
  sort_order: number;
  /** Lessons only: 'lesson' (blocks) or 'scorm' (a package). */
  kind?: 'lesson' | 'scorm';
}

export interface LessonRow extends ItemRow {
  description: string;
  course_id: number;
  /** 'lesson' (blocks) or 'scorm' (a package: modules/scorm). */
  kind: 'lesson' | 'scorm';
}

export interface BlockRow {
  id: number;
  type: string;
  content: string | null;
  file_path: string | null;
  original_filename: string | null;
  sort_order: number;
}

export type BlockValues = Omit<BlockRow, 'id'>;

const ITEM_TABLE = { lesson: 'lessons', test: 'tests' } as const;

/**
 * Modules, lessons, tests and lesson blocks of the course constructor (the courses module owns the
 * content tables). Reads see live rows of live parents only; deletion is soft.
 */
export class CourseStructureRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  private liveModules() {
    return this.db
      .selectFrom('modules')
      .innerJoin('courses', 'courses.id', 'modules.course_id')
      .where('modules.deleted_at', 'is', null)
      .where('courses.deleted_at', 'is', null)
      .select([
        'modules.id',
        'modules.course_id',
        'modules.name',
        'modules.sort_order',
        'modules.is_published',
        'modules.published_at',
      ]);
  }

  modules(courseId: number): Promise<ModuleRow[]> {
    return this.liveModules()
      .where('modules.course_id', '=', courseId)
      .orderBy('modules.sort_order')
      .orderBy('modules.id')
      .execute();
  }

  module(courseId: number, moduleId: number): Promise<ModuleRow | undefined> {
    return this.liveModules()
      .where('modules.course_id', '=', courseId)
      .where('modules.id', '=', moduleId)
      .executeTakeFirst();
  }

  /** A live module by id alone (lesson creation names only the module). */
  moduleById(moduleId: number): Promise<ModuleRow | undefined> {
    return this.liveModules().where('modules.id', '=', moduleId).executeTakeFirst();
  }

  /** Live lessons or tests of the given modules, in item order. */
  items(type: ItemType, moduleIds: readonly number[]): Promise<ItemRow[]> {
    if (moduleIds.length === 0) return Promise.resolve([]);
    if (type === 'lesson') {
      return this.db
        .selectFrom('lessons')
        .select(['id', 'module_id', 'name', 'is_published', 'sort_order', 'kind'])
        .where('module_id', 'in', moduleIds)
        .where('deleted_at', 'is', null)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
    }
    return this.db
      .selectFrom('tests')
      .select(['id', 'module_id', 'name', 'is_published', 'sort_order'])
      .where('module_id', 'in', moduleIds)
      .where('deleted_at', 'is', null)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  async maxItemSortOrder(moduleId: number): Promise<number | null> {
    const max = async (type: ItemType) =>
      (
        await this.db
          .selectFrom(ITEM_TABLE[type])
          .select((eb) => eb.fn.max<number | null>('sort_order').as('max'))
          .where('module_id', '=', moduleId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      )?.max ?? null;
    const [lessons, tests] = [await max('lesson'), await max('test')];
    if (lessons === null) return tests;
    return tests === null ? lessons : Math.max(lessons, tests);
  }

  async maxModuleSortOrder(courseId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('modules')
      .select((eb) => eb.fn.max<number | null>('sort_order').as('max'))
      .where('course_id', '=', courseId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.max ?? null;
  }

  insertModule(courseId: number, name: string, sortOrder: number, now: string): Promise<ModuleRow> {
    return this.db
      .insertInto('modules')
      .values({ course_id: courseId, name, sort_order: sortOrder, created_at: now, updated_at: now })
      .returning(['id', 'course_id', 'name', 'sort_order', 'is_published', 'published_at'])
      .executeTakeFirstOrThrow();
  }

  async updateModule(
    id: number,
    change: Partial<{ name: string; sort_order: number; is_published: boolean; published_at: string | null }>,
    now: string,
  ): Promise<void> {
    await this.db
      .updateTable('modules')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** The module and its lessons and tests are marked deleted; learners' records stay. */
  async softDeleteModule(id: number, now: string): Promise<void> {
    for (const table of ['lessons', 'tests'] as const) {
      await this.db
        .updateTable(table)
        .set({ deleted_at: now, updated_at: now })
        .where('module_id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    }
    await this.db.updateTable('modules').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
  }

  async setItemOrder(type: ItemType, id: number, sortOrder: number, now: string): Promise<void> {
    await this.db
      .updateTable(ITEM_TABLE[type])
      .set({ sort_order: sortOrder, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  insertLesson(
    moduleId: number,
    name: string,
    sortOrder: number,
    now: string,
    kind: 'lesson' | 'scorm' = 'lesson',
  ): Promise<ItemRow> {
    return this.db
      .insertInto('lessons')
      .values({ module_id: moduleId, name, sort_order: sortOrder, kind, created_at: now, updated_at: now })
      .returning(['id', 'module_id', 'name', 'is_published', 'sort_order', 'kind'])
      .executeTakeFirstOrThrow();
  }

  /** A live lesson of a live module of the given live course. */
  lesson(courseId: number, lessonId: number): Promise<LessonRow | undefined> {
    return this.db
      .selectFrom('lessons')
      .innerJoin('modules', 'modules.id', 'lessons.module_id')
      .innerJoin('courses', 'courses.id', 'modules.course_id')
      .select([
        'lessons.id',
        'lessons.module_id',
        'lessons.name',
        'lessons.description',
        'lessons.is_published',
        'lessons.sort_order',
        'lessons.kind',
        'modules.course_id',
      ])
      .where('lessons.id', '=', lessonId)
      .where('modules.course_id', '=', courseId)
      .where('lessons.deleted_at', 'is', null)
      .where('modules.deleted_at', 'is', null)
      .where('courses.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The course of a live lesson (calls that name only the lesson). */
  async lessonCourseId(lessonId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('lessons')
      .innerJoin('modules', 'modules.id', 'lessons.module_id')
      .innerJoin('courses', 'courses.id', 'modules.course_id')
      .select('modules.course_id')
      .where('lessons.id', '=', lessonId)
      .where('lessons.deleted_at', 'is', null)
      .where('modules.deleted_at', 'is', null)
      .where('courses.deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.course_id;
  }

  async updateLesson(id: number, change: Partial<{ name: string; is_published: boolean }>, now: string): Promise<void> {
    await this.db
      .updateTable('lessons')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async softDeleteLesson(id: number, now: string): Promise<void> {
    await this.db.updateTable('lessons').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
  }

  blocks(lessonId: number): Promise<BlockRow[]> {
    return this.db
      .selectFrom('lesson_contents')
      .select(['id', 'type', 'content', 'file_path', 'original_filename', 'sort_order'])
      .where('lesson_id', '=', lessonId)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  async insertBlock(lessonId: number, block: BlockValues, now: string): Promise<number> {
    const row = await this.db
      .insertInto('lesson_contents')
      .values({ ...block, lesson_id: lessonId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateBlock(id: number, block: BlockValues, now: string): Promise<void> {
    await this.db
      .updateTable('lesson_contents')
      .set({ ...block, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Blocks are the lesson's own content, not records: the ones an editor leaves out are removed. */
  async deleteBlocksExcept(lessonId: number, keepIds: readonly number[]): Promise<void> {
    let q = this.db.deleteFrom('lesson_contents').where('lesson_id', '=', lessonId);
    if (keepIds.length > 0) q = q.where('id', 'not in', keepIds);
    await q.execute();
  }
}
