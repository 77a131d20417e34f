import { unprocessable } from '../../platform/errors.js';
import type { CoursesRepository } from '../courses/repository.js';

export const COURSE_MISSING = 'Выбранный курс не найден';

/** Course ids chosen in settings forms: checked to exist, and shown as options. */
export class CourseOptions {
  constructor(private readonly courses: CoursesRepository) {}

  /** The ids without duplicates; 422 when one of them is not a live course. */
  async checkIds(ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await this.courses.existingIds(unique);
    if (found.length !== unique.length) throw unprocessable(COURSE_MISSING, { course_ids: [COURSE_MISSING] });
    return unique;
  }

  /** Id and name of the given live courses, by title (what the audit records of an assignment). */
  async named(ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return [];
    return (await this.courses.titles(ids)).map((r) => ({ id: r.id, name: r.title }));
  }

  async options(ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.courses.titles(ids);
    return rows.map((r) => ({ id: r.id, name: r.title, value: String(r.id), label: r.title }));
  }
}
