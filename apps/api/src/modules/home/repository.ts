import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class HomeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Lessons the user started and has not finished, newest first (published lessons only). */
  startedLessons(userId: number) {
    return this.db
      .selectFrom('lesson_progress as lp')
      .innerJoin('lessons as l', 'l.id', 'lp.lesson_id')
      .innerJoin('modules as m', 'm.id', 'l.module_id')
      .innerJoin('courses as c', 'c.id', 'm.course_id')
      .select([
        'l.id',
        'm.course_id',
        'l.name',
        'm.name as module',
        'c.title as section',
        'l.image_path',
        'c.image_path as course_image',
        'lp.started_at',
      ])
      .where('lp.user_id', '=', userId)
      .where('lp.started_at', 'is not', null)
      .where('lp.completed_at', 'is', null)
      .where('l.is_published', '=', true)
      .orderBy('lp.started_at', 'desc')
      .orderBy('lp.id', 'desc')
      .execute();
  }

  /** Lessons the user completed (any cycle), to drop a start that a later row finished. */
  async completedLessonIds(userId: number, lessonIds: readonly number[]): Promise<Map<number, string>> {
    if (lessonIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('lesson_progress')
      .select(['lesson_id', (eb) => eb.fn.max<string>('completed_at').as('completed_at')])
      .where('user_id', '=', userId)
      .where('lesson_id', 'in', lessonIds)
      .where('completed_at', 'is not', null)
      .groupBy('lesson_id')
      .execute();
    return new Map(rows.map((r) => [r.lesson_id, r.completed_at]));
  }
}
