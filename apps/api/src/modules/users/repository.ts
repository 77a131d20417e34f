import { sql, type SelectQueryBuilder } from 'kysely';
import { rowsTable, timeValue } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  position: string | null;
  last_activity_at: string | null;
  photo_path: string | null;
  department_id: number | null;
  department_name: string | null;
  role_id: number;
  role_name: string;
  role_code: string;
  directory_id: string | null;
  /** The line manager, if they are a live user (a deleted manager is nobody's). */
  manager_id: number | null;
  manager_email: string | null;
  manager_first_name: string | null;
  manager_last_name: string | null;
}

/** What a list of people shows of a user. */
export type ListedUser = Pick<
  UserRecord,
  'id' | 'first_name' | 'last_name' | 'email' | 'photo_path' | 'last_activity_at' | 'department_name'
>;

export interface UserInput {
  first_name: string;
  last_name: string;
  email: string;
  /** Null only for an imported person without a department whose row names none. */
  department_id: number | null;
  role_id: number;
  position: string | null;
  /** Only for people the directory sync creates. */
  directory_id?: string | null;
  /** The line manager; not given: left as it is. */
  manager_id?: number | null;
  /** How the account came to be (only at its creation); 'manual' when not given. */
  origin?: UserOrigin;
}

/** How an account came to be: 'Только вход через SSO' keeps the platform's password for 'manual' only. */
export type UserOrigin = 'manual' | 'import' | 'directory' | 'sso';

/** What every list of people shows of a person. */
const PERSON = [
  'users.id',
  'users.first_name',
  'users.last_name',
  'users.email',
  'users.photo_path',
  'users.last_activity_at',
] as const;

/** What a user row shows: the user's columns with their department's and role's names. */
export function shown<QB extends SelectQueryBuilder<Database, 'users', object>>(qb: QB) {
  return qb
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('departments', 'departments.id', 'users.department_id')
    .leftJoin('users as managers', (join) =>
      join.onRef('managers.id', '=', 'users.manager_id').on('managers.deleted_at', 'is', null),
    )
    .select([
      ...PERSON,
      'users.position',
      'users.department_id',
      'departments.name as department_name',
      'users.role_id',
      'roles.name as role_name',
      'roles.code as role_code',
      'users.directory_id',
      'managers.id as manager_id',
      'managers.email as manager_email',
      'managers.first_name as manager_first_name',
      'managers.last_name as manager_last_name',
    ]);
}

/** In the order of every list of people: by name, then id (total, so pages neither overlap nor skip). */
function byName<QB extends SelectQueryBuilder<Database, 'users', object>>(qb: QB): QB {
  return qb.orderBy('users.last_name').orderBy('users.first_name').orderBy('users.id') as QB;
}

/** Rows per multi-row insert: well under both databases' limits on bound values. */
const ROWS_PER_INSERT = 500;
/** Rows per batched update: its values are one bound value (`rowsTable`), so only memory limits it. */
const ROWS_PER_UPDATE = 1000;
const INTEGER_COLUMNS: ReadonlySet<string> = new Set(['department_id', 'role_id', 'manager_id']);

/** A user's own settings that only they change (issue 16), each a yes or no. */
type OwnSetting = 'reminder_mails' | 'digest_mails';

/** The users table (live users; a deleted user's row stays for their records) and direct assignments. */
export class UsersRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  private live() {
    return this.db.selectFrom('users').where('users.deleted_at', 'is', null);
  }

  private base() {
    return shown(this.live());
  }

  list(): Promise<UserRecord[]> {
    return byName(this.base()).execute();
  }

  /** Live users of a department, by name. */
  inDepartment(departmentId: number): Promise<UserRecord[]> {
    return byName(this.base().where('users.department_id', '=', departmentId)).execute();
  }

  /**
   * Live users (of a department, or all) with only what a list of people shows, in the order of
   * `list`: the analytics overview reads a whole company this way.
   */
  roster(departmentId?: number): Promise<ListedUser[]> {
    let q = this.live()
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([...PERSON, 'departments.name as department_name']);
    if (departmentId !== undefined) q = q.where('users.department_id', '=', departmentId);
    return byName(q).execute();
  }

  find(id: number): Promise<UserRecord | undefined> {
    return this.base().where('users.id', '=', id).executeTakeFirst();
  }

  /** Those of the given ids that are live users. */
  async existingIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.live().select('users.id').where('users.id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  /**
   * The live users of the given ids with their department's and role's names, by name: at most
   * `limit` of them. The ids go in slices, so any number of them stays under the databases' limits
   * on bound values.
   */
  async shownByIds(ids: readonly number[], limit: number): Promise<UserRecord[]> {
    const out: UserRecord[] = [];
    for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
      const slice = ids.slice(i, i + ROWS_PER_INSERT);
      out.push(
        ...(await byName(this.base().where('users.id', 'in', slice))
          .limit(limit)
          .execute()),
      );
    }
    const byNameOrder = (x: UserRecord, y: UserRecord) =>
      x.last_name.localeCompare(y.last_name, 'ru') || x.first_name.localeCompare(y.first_name, 'ru') || x.id - y.id;
    return out.sort(byNameOrder).slice(0, limit);
  }

  /** The number of live users of every department that has any (by `users_department_idx`). */
  async countByDepartment(): Promise<Map<number, number>> {
    const rows = await this.live()
      .select(['users.department_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('users.department_id', 'is not', null)
      .groupBy('users.department_id')
      .execute();
    const counts = new Map<number, number>();
    for (const r of rows) if (r.department_id !== null) counts.set(r.department_id, Number(r.n));
    return counts;
  }

  /** Whether a live user's photo is this stored file. */
  async photoInUse(path: string): Promise<boolean> {
    return (await this.live().select('users.id').where('users.photo_path', '=', path).executeTakeFirst()) !== undefined;
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    let q = this.live().select('users.id').where('users.email', '=', email.toLowerCase());
    if (exceptId) q = q.where('users.id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async roleExists(id: number) {
    return (await this.db.selectFrom('roles').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async departmentExists(id: number) {
    return (await this.db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** A new account with the password the administrator has mailed: the user sets their own at sign-in. */
  async insert(input: UserInput, passwordHash: string, now: string): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values({
        ...input,
        email: input.email.toLowerCase(),
        password_hash: passwordHash,
        must_change_password: true,
        department_assigned_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Many new accounts at once (an import), with their ids by address (RETURNING promises no order);
   * their password is `passwordHash` until their invitation sets one or they recover it.
   */
  async insertMany(inputs: readonly UserInput[], passwordHash: string, now: string): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (let i = 0; i < inputs.length; i += ROWS_PER_INSERT) {
      const rows = await this.db
        .insertInto('users')
        .values(
          inputs.slice(i, i + ROWS_PER_INSERT).map((input) => ({
            ...input,
            email: input.email.toLowerCase(),
            password_hash: passwordHash,
            must_change_password: true,
            department_assigned_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'email'])
        .execute();
      for (const row of rows) ids.set(row.email, row.id);
    }
    return ids;
  }

  /** The ids of the live users with these addresses (lower-case), by address. */
  async liveIdsByEmail(emails: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < emails.length; i += ROWS_PER_INSERT) {
      const rows = await this.live()
        .select(['users.id', 'users.email'])
        .where('users.email', 'in', emails.slice(i, i + ROWS_PER_INSERT))
        .execute();
      for (const row of rows) out.set(row.email, row.id);
    }
    return out;
  }

  /**
   * Every live user with what an import compares: the department's and role's names, and the
   * manager's address. The managers are looked up among the same rows rather than by a second join
   * of users: PostgreSQL keeps a connection's plan, and one made while the company was empty
   * compared everyone with everyone once it had grown (50 million rows at 10 000 people).
   */
  async livePeople(): Promise<UserRecord[]> {
    const rows = await this.live()
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        ...PERSON,
        'users.position',
        'users.department_id',
        'departments.name as department_name',
        'users.role_id',
        'roles.name as role_name',
        'roles.code as role_code',
        'users.directory_id',
        'users.manager_id',
      ])
      .orderBy('users.id')
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return rows.map((r) => {
      const manager = r.manager_id === null ? undefined : byId.get(r.manager_id);
      return {
        ...r,
        manager_id: manager ? manager.id : null,
        manager_email: manager?.email ?? null,
        manager_first_name: manager?.first_name ?? null,
        manager_last_name: manager?.last_name ?? null,
      };
    });
  }

  /**
   * Changes many users at once (an import), each only in the columns given for it: rows changing the
   * same columns are written by one statement per thousand, joined to their values as a table
   * (`rowsTable`), instead of a statement each. A column not given is not written, so the name
   * search's trigger fires only for rows whose name or address changes.
   */
  async updateMany(changes: readonly { id: number; set: Partial<UserInput> }[], now: string): Promise<void> {
    const groups = new Map<string, { id: number; set: Partial<UserInput> }[]>();
    for (const change of changes) {
      const columns = (Object.keys(change.set) as (keyof UserInput)[]).sort().join(',');
      if (columns === '') continue;
      // Appended in place: copying the group for each change made 50 000 of them quadratic.
      const group = groups.get(columns);
      if (group) group.push(change);
      else groups.set(columns, [change]);
    }
    for (const [joined, group] of groups) {
      const columns = joined.split(',') as (keyof UserInput)[];
      const table = columns.map((name) => ({ name, type: INTEGER_COLUMNS.has(name) ? 'integer' : 'text' }) as const);
      for (let i = 0; i < group.length; i += ROWS_PER_UPDATE) {
        const part = group.slice(i, i + ROWS_PER_UPDATE);
        const given = rowsTable(
          this.uow.kind,
          [{ name: 'id', type: 'integer' }, ...table],
          part.map((c) => [
            c.id,
            ...columns.map((name) => (name === 'email' ? c.set.email?.toLowerCase() : c.set[name]) ?? null),
          ]),
        );
        const moved = columns.includes('department_id')
          ? sql`, department_assigned_at = ${timeValue(this.uow.kind, now)}`
          : sql``;
        await sql`update users set ${sql.join(columns.map((name) => sql`${sql.ref(name)} = t.${sql.ref(name)}`))},
          updated_at = ${timeValue(this.uow.kind, now)}${moved}
          from ${given} as t where users.id = t.id`.execute(this.db);
      }
    }
  }

  async update(id: number, input: UserInput, now: string, departmentChanged: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        ...input,
        email: input.email.toLowerCase(),
        updated_at: now,
        ...(departmentChanged ? { department_assigned_at: now } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Marks the user deleted: the row stays so that their learning records keep their owner, the
   * department is cleared (its courses no longer enroll them) and the password can never match.
   */
  async softDelete(id: number, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ deleted_at: now, updated_at: now, department_id: null, password_hash: '!deleted' })
      .where('id', '=', id)
      .execute();
  }

  /** The stored hash, for a check of the user's own old password. */
  async passwordHash(id: number): Promise<string | undefined> {
    return (await this.live().select('users.password_hash').where('users.id', '=', id).executeTakeFirst())
      ?.password_hash;
  }

  async setPasswordHash(id: number, passwordHash: string, mustChange: boolean, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: mustChange, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Whether deadline reminder mails go to the user (issue 16); undefined for no live user. */
  reminderMails(id: number): Promise<boolean | undefined> {
    return this.ownSetting(id, 'reminder_mails');
  }

  /** Whether the weekly team digest goes to the user (issue 16); undefined for no live user. */
  digestMails(id: number): Promise<boolean | undefined> {
    return this.ownSetting(id, 'digest_mails');
  }

  async setDigestMails(id: number, on: boolean, now: string): Promise<void> {
    await this.setOwnSetting(id, 'digest_mails', on, now);
  }

  /** Sets the user's own reminder preference; false when there is no such live user. */
  setReminderMails(id: number, on: boolean, now: string): Promise<boolean> {
    return this.setOwnSetting(id, 'reminder_mails', on, now);
  }

  private async ownSetting(id: number, setting: OwnSetting): Promise<boolean | undefined> {
    const row = await this.live().select(`users.${setting}`).where('users.id', '=', id).executeTakeFirst();
    return row?.[setting];
  }

  /** False when there is no such live user. */
  private async setOwnSetting(id: number, setting: OwnSetting, on: boolean, now: string): Promise<boolean> {
    const rows = await this.db
      .updateTable('users')
      .set({ [setting]: on, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** Ids of the live administrators; with `lock`, their rows stay locked until the unit ends (PostgreSQL). */
  async administratorIds(lock: boolean): Promise<number[]> {
    let q = this.live()
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.code', '=', 'admin');
    if (lock) q = q.forUpdate();
    return (await q.execute()).map((r) => r.id);
  }

  roles() {
    return this.db.selectFrom('roles').select(['id', 'name', 'code']).orderBy('id').execute();
  }
}
