import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

type Exec = Kysely<Database> | Transaction<Database>;

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  position: string | null;
  last_activity_at: string | null;
  department_id: number | null;
  department_name: string | null;
  role_id: number;
  role_name: string;
  role_code: string;
}

export interface UserInput {
  first_name: string;
  last_name: string;
  email: string;
  department_id: number;
  role_id: number;
  position: string | null;
}

class LastAdmin extends Error {}

export class UsersRepository {
  constructor(
    readonly db: Kysely<Database>,
    private readonly lockAdmins = false,
  ) {}

  private base(db: Exec = this.db) {
    return db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        'users.id',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.position',
        'users.last_activity_at',
        'users.department_id',
        'departments.name as department_name',
        'users.role_id',
        'roles.name as role_name',
        'roles.code as role_code',
      ]);
  }

  list(): Promise<UserRecord[]> {
    return this.base().orderBy('users.last_name').orderBy('users.first_name').orderBy('users.id').execute();
  }

  find(id: number): Promise<UserRecord | undefined> {
    return this.base().where('users.id', '=', id).executeTakeFirst();
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async roleExists(id: number) {
    return (await this.db.selectFrom('roles').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async departmentExists(id: number) {
    return (await this.db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async create(input: UserInput, passwordHash: string, courseIds: readonly number[], now: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({
          ...input,
          email: input.email.toLowerCase(),
          password_hash: passwordHash,
          department_assigned_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.attachCourses(row.id, courseIds, now, trx);
      return row.id;
    });
  }

  /** False (and nothing changed) when the change would leave the company without an administrator. */
  async update(id: number, input: UserInput, now: string, departmentChanged: boolean): Promise<boolean> {
    return this.keepingAnAdmin(async (trx) => {
      await trx
        .updateTable('users')
        .set({
          ...input,
          email: input.email.toLowerCase(),
          updated_at: now,
          ...(departmentChanged ? { department_assigned_at: now } : {}),
        })
        .where('id', '=', id)
        .execute();
    });
  }

  /**
   * Sessions, direct assignments, memberships and learning records go with the user (foreign keys).
   * False (and nothing deleted) when it was the last administrator.
   */
  async delete(id: number): Promise<boolean> {
    return this.keepingAnAdmin(async (trx) => {
      await trx.deleteFrom('users').where('id', '=', id).execute();
    });
  }

  /** Runs a change in a transaction that is rolled back if no administrator would remain. */
  private async keepingAnAdmin(change: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // PostgreSQL: two such changes wait for each other, so neither misses the other's removal.
        // SQLite runs one write transaction at a time already.
        if (this.lockAdmins) {
          await trx
            .selectFrom('users')
            .innerJoin('roles', 'roles.id', 'users.role_id')
            .select('users.id')
            .where('roles.code', '=', 'admin')
            .forUpdate()
            .execute();
        }
        await change(trx);
        const admin = await trx
          .selectFrom('users')
          .innerJoin('roles', 'roles.id', 'users.role_id')
          .select('users.id')
          .where('roles.code', '=', 'admin')
          .executeTakeFirst();
        if (!admin) throw new LastAdmin();
      });
      return true;
    } catch (error) {
      if (error instanceof LastAdmin) return false;
      throw error;
    }
  }

  async setPassword(id: number, passwordHash: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', id)
        .execute();
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    });
  }

  directCourses(userId: number) {
    return this.db
      .selectFrom('user_courses')
      .innerJoin('courses', 'courses.id', 'user_courses.course_id')
      .select(['courses.id', 'courses.title as name'])
      .where('user_courses.user_id', '=', userId)
      .orderBy('courses.title')
      .execute();
  }

  /** Adds direct assignments; one already there keeps its original time. */
  async attachCourses(userId: number, courseIds: readonly number[], now: string, db: Exec = this.db): Promise<void> {
    if (courseIds.length === 0) return;
    await db
      .insertInto('user_courses')
      .values(courseIds.map((course_id) => ({ user_id: userId, course_id, assigned_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute();
  }

  async detachCourses(userId: number, courseIds: readonly number[]): Promise<void> {
    if (courseIds.length === 0) return;
    await this.db
      .deleteFrom('user_courses')
      .where('user_id', '=', userId)
      .where('course_id', 'in', courseIds)
      .execute();
  }

  roles() {
    return this.db.selectFrom('roles').select(['id', 'name', 'code']).orderBy('id').execute();
  }
}
