import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export const foldCase = (s: string) => s.trim().toLocaleLowerCase('ru-RU').replace(/ё/g, 'е');

export interface CatalogueCourseRow {
  id: number;
  title: string;
  description: string;
  image_path: string | null;
  is_published: boolean;
  category_id: number | null;
}

export class CatalogueRepository {
  constructor(private readonly db: Kysely<Database>) {}

  categories() {
    return this.db
      .selectFrom('course_categories')
      .select(['id', 'name', 'sort_order'])
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  category(id: number) {
    return this.db
      .selectFrom('course_categories')
      .select(['id', 'name', 'sort_order'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  courses(ids?: readonly number[]): Promise<CatalogueCourseRow[]> {
    if (ids?.length === 0) return Promise.resolve([]);
    let q = this.db
      .selectFrom('courses')
      .select(['id', 'title', 'description', 'image_path', 'is_published', 'category_id'])
      .orderBy('sort_order')
      .orderBy('id');
    if (ids) q = q.where('id', 'in', ids);
    return q.execute();
  }

  /** Number of study groups that have each course. */
  async groupCounts(courseIds: readonly number[]): Promise<Map<number, number>> {
    if (courseIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('group_courses')
      .select(['course_id', (eb) => eb.fn.countAll<number>().as('groups')])
      .where('course_id', 'in', courseIds)
      .groupBy('course_id')
      .execute();
    return new Map(rows.map((r) => [r.course_id, Number(r.groups)]));
  }

  /**
   * Case-insensitive, Cyrillic included: SQLite's lower() folds ASCII only, so names are compared here
   * (categories and courses are few, and the list is one indexed scan).
   */
  async categoryNameTaken(name: string, exceptIds: readonly number[] = []): Promise<boolean> {
    const key = foldCase(name);
    const rows = await this.db.selectFrom('course_categories').select(['id', 'name']).execute();
    return rows.some((r) => !exceptIds.includes(r.id) && foldCase(r.name) === key);
  }

  async courseTitleTaken(title: string, exceptId?: number): Promise<boolean> {
    const key = foldCase(title);
    const rows = await this.db.selectFrom('courses').select(['id', 'title']).execute();
    return rows.some((r) => r.id !== exceptId && foldCase(r.title) === key);
  }

  async createCategory(name: string, now: string) {
    return this.db.transaction().execute(async (trx) => {
      const max = await trx
        .selectFrom('course_categories')
        .select((eb) => eb.fn.max<number | null>('sort_order').as('max'))
        .executeTakeFirst();
      return trx
        .insertInto('course_categories')
        .values({ name, sort_order: (max?.max ?? -1) + 1, created_at: now, updated_at: now })
        .returning(['id', 'name', 'sort_order'])
        .executeTakeFirstOrThrow();
    });
  }

  async renameCategory(id: number, name: string, now: string): Promise<void> {
    await this.db.updateTable('course_categories').set({ name, updated_at: now }).where('id', '=', id).execute();
  }

  /** Order and names of several categories at once, in one transaction. */
  async updateCategories(
    list: readonly { id: number; name: string; sort_order: number }[],
    now: string,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Two passes so that swapping two names never trips the unique index half-way.
      for (const c of list) {
        await trx
          .updateTable('course_categories')
          .set({ name: `~renaming~${c.id}~${now}`, updated_at: now })
          .where('id', '=', c.id)
          .execute();
      }
      for (const c of list) {
        await trx
          .updateTable('course_categories')
          .set({ name: c.name, sort_order: c.sort_order, updated_at: now })
          .where('id', '=', c.id)
          .execute();
      }
    });
  }

  /** Its courses go too (the foreign key cascades), as the confirm dialog warns. */
  async deleteCategory(id: number): Promise<void> {
    await this.db.deleteFrom('course_categories').where('id', '=', id).execute();
  }

  async createCourse(title: string, categoryId: number | null, now: string) {
    return this.db.transaction().execute(async (trx) => {
      let maxQ = trx.selectFrom('courses').select((eb) => eb.fn.max<number | null>('sort_order').as('max'));
      maxQ = categoryId === null ? maxQ.where('category_id', 'is', null) : maxQ.where('category_id', '=', categoryId);
      const max = await maxQ.executeTakeFirst();
      return trx
        .insertInto('courses')
        .values({ title, category_id: categoryId, sort_order: (max?.max ?? -1) + 1, created_at: now, updated_at: now })
        .returning(['id', 'title', 'category_id'])
        .executeTakeFirstOrThrow();
    });
  }
}
