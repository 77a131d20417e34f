import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { AttemptRecord, LessonRecord } from './engine.js';

const CHUNK = 2000;
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** A learner's records by item id (what engine.courseState reads). */
export interface UserRecords {
  lessons: Map<number, LessonRecord[]>;
  attempts: Map<number, AttemptRecord[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The learning records (lesson_progress, test_attempts), loaded set-based for the engine: a fixed
 * number of queries whatever the number of users and courses.
 */
export class ProgressRepository {
  constructor(private readonly uow: Pick<UnitOfWork, 'db'>) {}

  private get db() {
    return this.uow.db;
  }

  /**
   * Every lesson and test record of the given users, grouped by user (two queries per 2000 users);
   * with `items`, only the records of those lessons and tests.
   */
  async records(
    userIds: readonly number[],
    items?: { lessonIds: readonly number[]; testIds: readonly number[] },
  ): Promise<Map<number, UserRecords>> {
    const out = new Map<number, UserRecords>();
    const of = (userId: number) => {
      let r = out.get(userId);
      if (!r) out.set(userId, (r = { lessons: new Map(), attempts: new Map() }));
      return r;
    };
    for (const users of chunks(userIds)) {
      const [lp, ta] = await Promise.all([
        items?.lessonIds.length === 0
          ? []
          : this.db
              .selectFrom('lesson_progress')
              .select(['user_id', 'lesson_id', 'started_at', 'completed_at'])
              .where('user_id', 'in', users)
              .$if(items !== undefined, (q) => q.where('lesson_id', 'in', items?.lessonIds ?? []))
              .execute(),
        items?.testIds.length === 0
          ? []
          : this.db
              .selectFrom('test_attempts')
              .select(['user_id', 'test_id', 'started_at', 'finished_at', 'is_passed'])
              .where('user_id', 'in', users)
              .$if(items !== undefined, (q) => q.where('test_id', 'in', items?.testIds ?? []))
              .execute(),
      ]);
      for (const r of lp) push(of(r.user_id).lessons, r.lesson_id, r);
      for (const r of ta) push(of(r.user_id).attempts, r.test_id, r);
    }
    return out;
  }

  /**
   * The (user, course) pairs with any lesson or test record, whatever the item's state now (records
   * outlive unpublishing and deletion); filtered by users and/or courses.
   */
  async recordPairs(filter: {
    userIds?: readonly number[];
    courseIds?: readonly number[];
  }): Promise<{ user_id: number; course_id: number }[]> {
    const { userIds, courseIds } = filter;
    if (userIds?.length === 0 || courseIds?.length === 0) return [];
    const lessons = this.db
      .selectFrom('lesson_progress as r')
      .innerJoin('lessons as i', 'i.id', 'r.lesson_id')
      .innerJoin('modules as m', 'm.id', 'i.module_id')
      .select(['r.user_id', 'm.course_id'])
      .$if(userIds !== undefined, (q) => q.where('r.user_id', 'in', userIds ?? []))
      .$if(courseIds !== undefined, (q) => q.where('m.course_id', 'in', courseIds ?? []));
    const tests = this.db
      .selectFrom('test_attempts as r')
      .innerJoin('tests as i', 'i.id', 'r.test_id')
      .innerJoin('modules as m', 'm.id', 'i.module_id')
      .select(['r.user_id', 'm.course_id'])
      .$if(userIds !== undefined, (q) => q.where('r.user_id', 'in', userIds ?? []))
      .$if(courseIds !== undefined, (q) => q.where('m.course_id', 'in', courseIds ?? []));
    return lessons.union(tests).execute();
  }

  /** The user's row of a lesson in the cycle that began at `since` (null: the first cycle, any row). */
  async lessonRow(userId: number, lessonId: number, since: string | null) {
    let q = this.db
      .selectFrom('lesson_progress')
      .select(['id', 'started_at', 'completed_at'])
      .where('user_id', '=', userId)
      .where('lesson_id', '=', lessonId)
      .orderBy('id');
    if (since !== null) {
      q = q.where((eb) => eb.or([eb('started_at', '>=', since), eb('completed_at', '>=', since)]));
    }
    return q.executeTakeFirst();
  }

  async insertLessonRow(
    row: { user_id: number; lesson_id: number; started_at: string | null; completed_at: string | null },
    now: string,
  ): Promise<void> {
    await this.db
      .insertInto('lesson_progress')
      .values({ ...row, created_at: now, updated_at: now })
      .execute();
  }

  /** Sets a time only where it is still empty, so that a repeated call changes nothing. */
  async fillLessonTime(id: number, column: 'started_at' | 'completed_at', at: string): Promise<void> {
    await this.db
      .updateTable('lesson_progress')
      .set({ [column]: at, updated_at: at })
      .where('id', '=', id)
      .where(column, 'is', null)
      .execute();
  }
}
