import type { UnitOfWork } from '../../db/unitOfWork.js';
import { fullName } from '../auth/permissions.js';

export interface GroupRecord {
  id: number;
  name: string;
  users: { id: number; name: string; first_name: string; last_name: string }[];
  course_ids: number[];
}

export interface GroupInput {
  name: string;
  user_ids: number[];
  course_ids: number[];
}

export class GroupsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

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
      users: members
        .filter((m) => m.group_id === g.id)
        .map((m) => ({ id: m.id, name: fullName(m), first_name: m.first_name, last_name: m.last_name })),
      course_ids: courses.filter((c) => c.group_id === g.id).map((c) => c.course_id),
    }));
  }

  /** Id and name of every group, in the list's order (without members and courses). */
  names(): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('study_groups').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  }

  async find(id: number): Promise<GroupRecord | undefined> {
    return (await this.list(id))[0];
  }

  async insert(name: string, now: string): Promise<number> {
    const row = await this.db
      .insertInto('study_groups')
      .values({ name, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async rename(id: number, name: string, now: string): Promise<void> {
    await this.db.updateTable('study_groups').set({ name, updated_at: now }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('study_groups').where('id', '=', id).execute();
  }
}
