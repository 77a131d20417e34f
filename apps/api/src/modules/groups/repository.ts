import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { fullName } from '../auth/permissions.js';

export interface GroupRecord {
  id: number;
  name: string;
  users: { id: number; name: string }[];
  course_ids: number[];
}

export interface GroupInput {
  name: string;
  user_ids: number[];
  course_ids: number[];
}

export class GroupsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Groups with members and courses: three queries in all, whatever the number of groups. */
  async list(onlyId?: number): Promise<GroupRecord[]> {
    let q = this.db.selectFrom('study_groups').select(['id', 'name']).orderBy('name').orderBy('id');
    if (onlyId !== undefined) q = q.where('id', '=', onlyId);
    const groups = await q.execute();
    if (groups.length === 0) return [];
    const ids = groups.map((g) => g.id);
    const [members, courses] = await Promise.all([
      this.db
        .selectFrom('group_users')
        .innerJoin('users', 'users.id', 'group_users.user_id')
        .select(['group_users.group_id', 'users.id', 'users.first_name', 'users.last_name'])
        .where('group_users.group_id', 'in', ids)
        .orderBy('users.last_name')
        .orderBy('users.first_name')
        .execute(),
      this.db
        .selectFrom('group_courses')
        .select(['group_id', 'course_id'])
        .where('group_id', 'in', ids)
        .orderBy('course_id')
        .execute(),
    ]);
    return groups.map((g) => ({
      ...g,
      users: members.filter((m) => m.group_id === g.id).map((m) => ({ id: m.id, name: fullName(m) })),
      course_ids: courses.filter((c) => c.group_id === g.id).map((c) => c.course_id),
    }));
  }

  async find(id: number): Promise<GroupRecord | undefined> {
    return (await this.list(id))[0];
  }

  async existingUserIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    return (await this.db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  async create(input: GroupInput, now: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('study_groups')
        .values({ name: input.name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.syncLinks(trx, row.id, input, now);
      return row.id;
    });
  }

  async update(id: number, input: GroupInput, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('study_groups').set({ name: input.name, updated_at: now }).where('id', '=', id).execute();
      await this.syncLinks(trx, id, input, now);
    });
  }

  /** Replaces members and courses; those kept keep their original times (they decide enrolled_at). */
  private async syncLinks(trx: Transaction<Database>, id: number, input: GroupInput, now: string): Promise<void> {
    let dropUsers = trx.deleteFrom('group_users').where('group_id', '=', id);
    if (input.user_ids.length > 0) dropUsers = dropUsers.where('user_id', 'not in', input.user_ids);
    await dropUsers.execute();
    let dropCourses = trx.deleteFrom('group_courses').where('group_id', '=', id);
    if (input.course_ids.length > 0) dropCourses = dropCourses.where('course_id', 'not in', input.course_ids);
    await dropCourses.execute();
    if (input.user_ids.length > 0) {
      await trx
        .insertInto('group_users')
        .values(input.user_ids.map((user_id) => ({ group_id: id, user_id, added_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    }
    if (input.course_ids.length > 0) {
      await trx
        .insertInto('group_courses')
        .values(input.course_ids.map((course_id) => ({ group_id: id, course_id, assigned_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'course_id']).doNothing())
        .execute();
    }
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('study_groups').where('id', '=', id).execute();
  }
}
