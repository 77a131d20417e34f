import { PreparedQuery } from '../../db/prepared.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { liveCategory } from '../courses/live.js';

export const foldCase = (s: string) => s.trim().toLocaleLowerCase('ru-RU').replace(/ё/g, 'е');

/** The live categories in their order: read by every catalogue view, so compiled once (db/prepared.ts). */
const liveCategories = new PreparedQuery([], (db) =>
  db
    .selectFrom('course_categories')
    .select(['id', 'name', 'sort_order'])
    .where('deleted_at', 'is', null)
    .orderBy('sort_order')
    .orderBy('id'),
);

/** Course categories (live ones: a deleted category's row stays, with its deleted courses). */
export class CatalogueRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  private live() {
    return this.db.selectFrom('course_categories').where(liveCategory('course_categories'));
  }

  categories() {
    return liveCategories.execute(this.db, {});
  }

  category(id: number) {
    return this.live().select(['id', 'name', 'sort_order']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Case-insensitive, Cyrillic included: SQLite's lower() folds ASCII only, so names are compared here
   * (categories are few, and the list is one indexed scan).
   */
  async categoryNameTaken(name: string, exceptIds: readonly number[] = []): Promise<boolean> {
    const key = foldCase(name);
    const rows = await this.live().select(['id', 'name']).execute();
    return rows.some((r) => !exceptIds.includes(r.id) && foldCase(r.name) === key);
  }

  async maxSortOrder(): Promise<number | null> {
    const row = await this.live()
      .select((eb) => eb.fn.max<number | null>('sort_order').as('max'))
      .executeTakeFirst();
    return row?.max ?? null;
  }

  insertCategory(name: string, sortOrder: number, now: string) {
    return this.db
      .insertInto('course_categories')
      .values({ name, sort_order: sortOrder, created_at: now, updated_at: now })
      .returning(['id', 'name', 'sort_order'])
      .executeTakeFirstOrThrow();
  }

  async updateCategory(id: number, change: { name: string; sort_order?: number }, now: string): Promise<void> {
    await this.db
      .updateTable('course_categories')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .where(liveCategory('course_categories'))
      .execute();
  }

  async softDeleteCategory(id: number, now: string): Promise<void> {
    await this.db
      .updateTable('course_categories')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  }
}
