import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface DepartmentRecord {
  id: number;
  name: string;
  sort_order: number | null;
  course_ids: number[];
}

export interface DepartmentInput {
  name: string;
  sort_order: number | null;
  course_ids: number[];
}

export class DepartmentsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  /** Sorted by sort_order (missing = 0), then name; courses in one more query, not one per row. */
  async list(onlyId?: number): Promise<DepartmentRecord[]> {
    let q = this.db
      .selectFrom('departments')
      .select(['id', 'name', 'sort_order'])
      .orderBy(sql`coalesce(sort_order, 0)`)
      .orderBy('name')
      .orderBy('id');
    if (onlyId !== undefined) q = q.where('id', '=', onlyId);
    const rows = await q.execute();
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('department_courses')
      .select(['department_id', 'course_id'])
      .where(
        'department_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('course_id')
      .execute();
    return rows.map((r) => ({
      ...r,
      course_ids: links.filter((l) => l.department_id === r.id).map((l) => l.course_id),
    }));
  }

  /** Id and name of every department, in the list's order (without their courses). */
  names(): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('departments')
      .select(['id', 'name'])
      .orderBy(sql`coalesce(sort_order, 0)`)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  async find(id: number): Promise<DepartmentRecord | undefined> {
    return (await this.list(id))[0];
  }

  async insert(input: { name: string; sort_order: number | null }, now: string): Promise<number> {
    const row = await this.db
      .insertInto('departments')
      .values({ name: input.name, sort_order: input.sort_order, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, input: { name: string; sort_order: number | null }, now: string): Promise<void> {
    await this.db
      .updateTable('departments')
      .set({ name: input.name, sort_order: input.sort_order, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('departments').where('id', '=', id).execute();
  }
}
