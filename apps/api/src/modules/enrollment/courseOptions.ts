import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { unprocessable } from '../../platform/errors.js';

export const COURSE_MISSING = 'Выбранный курс не найден';

/** Course ids chosen in settings forms: checked to exist, and shown as options. */
export class CourseOptions {
  constructor(private readonly db: Kysely<Database>) {}

  /** The ids without duplicates; 422 when one of them is not a course. */
  async checkIds(ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await this.db.selectFrom('courses').select('id').where('id', 'in', unique).execute();
    if (found.length !== unique.length) throw unprocessable(COURSE_MISSING, { course_ids: [COURSE_MISSING] });
    return unique;
  }

  async options(ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('id', 'in', ids)
      .orderBy('title')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.title, value: String(r.id), label: r.title }));
  }
}
