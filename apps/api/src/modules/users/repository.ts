import { BatchedLookup } from '../../db/batched.js';
import { PreparedQuery } from '../../db/prepared.js';
import type { AdminUserSort } from '@lms/contract';
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface UserPageQuery {
  search?: string | undefined;
  sort?: AdminUserSort | undefined;
  direction?: 'asc' | 'desc' | undefined;
  limit: number;
  offset: number;
}

/** A LIKE pattern's wildcards taken literally (escape character: backslash). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

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
  department_id: number;
  role_id: number;
  position: string | null;
}

const liveUsers = new PreparedQuery([], (db) =>
  db.selectFrom('counters').select('value as n').where('name', '=', 'live_users'),
);

/** What a user row shows: the user's columns with their department's and role's names. */
function shown<QB extends SelectQueryBuilder<Database, 'users', object>>(qb: QB) {
  return qb
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .leftJoin('departments', 'departments.id', 'users.department_id')
    .select([
      'users.id',
      'users.first_name',
      'users.last_name',
      'users.email',
      'users.position',
      'users.last_activity_at',
      'users.photo_path',
      'users.department_id',
      'departments.name as department_name',
      'users.role_id',
      'roles.name as role_name',
      'roles.code as role_code',
    ]);
}

/** The search's LIKE pattern: a case-insensitive substring; null without a search. */
const searchPattern = (search: string | undefined) => (search ? `%${escapeLike(search.toLowerCase())}%` : null);

/** What a page's statement depends on besides its values: one prepared statement per shape. */
interface PageShape {
  sort: AdminUserSort;
  direction: 'asc' | 'desc';
  searching: boolean;
}

/** The search of the paged list: a case-insensitive substring of the name (either order) or email. */
function matching<QB extends SelectQueryBuilder<Database, 'users', object>>(pattern: string | null, qb: QB): QB {
  if (pattern === null) return qb;
  return qb.where((eb) =>
    eb.or([
      sql<boolean>`lower(users.first_name || ' ' || users.last_name) like ${pattern} escape '\\'`,
      sql<boolean>`lower(users.last_name || ' ' || users.first_name) like ${pattern} escape '\\'`,
      sql<boolean>`lower(users.email) like ${pattern} escape '\\'`,
    ]),
  ) as QB;
}

/**
 * The order of the paged list; it ends with the id, so it is total and consecutive pages neither
 * overlap nor skip (while nothing changes in between). Sorted by department or role, `qb` must
 * join `departments` and `roles`.
 */
function ordered<QB extends SelectQueryBuilder<Database, 'users', object>>(
  shape: Pick<PageShape, 'sort' | 'direction'>,
  qb: QB,
): QB {
  const dir = shape.direction;
  const keys: [RawBuilder<unknown>, 'asc' | 'desc'][] = [];
  switch (shape.sort) {
    case 'email':
      keys.push([sql`users.email`, dir]);
      break;
    case 'department':
      // Users without a department last, whatever the direction (the same on both databases).
      keys.push([sql`departments.name is null`, 'asc'], [sql`departments.name`, dir]);
      break;
    case 'role':
      keys.push([sql`roles.name`, dir]);
      break;
    case 'last_activity':
      keys.push([sql`users.last_activity_at is null`, 'asc'], [sql`users.last_activity_at`, dir]);
      break;
    case 'name':
      break;
  }
  keys.push([sql`users.last_name`, dir], [sql`users.first_name`, dir], [sql`users.id`, dir]);
  let out = qb;
  for (const [key, direction] of keys) out = out.orderBy(key, direction) as QB;
  return out;
}

/**
 * One page: the page's ids are chosen first, over the users and what the order needs only; the rows
 * shown are then read for those ids alone: an offset skips index entries, not joined rows (page 20 of
 * 50 read and joined 1 000 rows to keep 50).
 */
function pageQuery(
  db: Kysely<Database>,
  shape: PageShape,
  slots: { pattern: string | null; limit: number; offset: number },
) {
  const live = matching(
    shape.searching ? slots.pattern : null,
    db.selectFrom('users').where('users.deleted_at', 'is', null),
  );
  // Sorted by a department's or a role's name, every user is joined to it to be sorted anyway.
  const sortedByJoin = shape.sort === 'department' || shape.sort === 'role';
  const ids = (
    sortedByJoin
      ? ordered(
          shape,
          live
            .innerJoin('roles', 'roles.id', 'users.role_id')
            .leftJoin('departments', 'departments.id', 'users.department_id')
            .select('users.id as page_id'),
        )
      : ordered(shape, live.select('users.id as page_id'))
  )
    .limit(slots.limit)
    .offset(slots.offset)
    .as('p');
  // The page's ids are the outer loop (SQLite keeps the left side of a cross join outside): read by
  // order, the users index would be scanned again to spare sorting fifty rows.
  const page = db.selectFrom(ids).crossJoin('users').whereRef('users.id', '=', 'p.page_id');
  return ordered(shape, shown(page));
}

/**
 * Last activity of the given users, who are named by one bound value (prepared.ts binds no lists): a
 * JSON array on SQLite, an array literal on PostgreSQL.
 */
const activityInJson = new PreparedQuery(['ids'], (db, p: { ids: string }) =>
  db
    .selectFrom('users')
    .select(['users.id', 'users.last_activity_at'])
    .where(sql<boolean>`users.id in (select value from json_each(${p.ids}))`),
);
const activityInArray = new PreparedQuery(['ids'], (db, p: { ids: string }) =>
  db
    .selectFrom('users')
    .select(['users.id', 'users.last_activity_at'])
    .where(sql<boolean>`users.id = any(cast(${p.ids} as integer[]))`),
);

/** Page statements by shape (prepared.ts: built and compiled once, then bound). */
const pageQueries = new Map<
  string,
  PreparedQuery<{ pattern: string | null; limit: number; offset: number }, UserRecord>
>();

/** The users table (live users; a deleted user's row stays for their records) and direct assignments. */
export class UsersRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  private base() {
    return shown(this.db.selectFrom('users')).where('users.deleted_at', 'is', null);
  }

  list(): Promise<UserRecord[]> {
    return this.base().orderBy('users.last_name').orderBy('users.first_name').orderBy('users.id').execute();
  }

  /** One page of live users matching a search (name or email, case-insensitive substring), and their count. */
  async page(query: UserPageQuery): Promise<{ rows: UserRecord[]; total: number }> {
    // Without a search every live user counts: the triggers of migration 0011 keep that number.
    const count = query.search
      ? matching(searchPattern(query.search), this.db.selectFrom('users').where('users.deleted_at', 'is', null))
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      : liveUsers.executeTakeFirst(this.db, {});
    const [page, total] = await Promise.all([this.pageRows(query), count]);
    return { rows: page, total: Number(total?.n ?? 0) };
  }

  /** The rows of `page` without the count (the export reads every page of a search this way). */
  pageRows(query: UserPageQuery): Promise<UserRecord[]> {
    const shape: PageShape = {
      sort: query.sort ?? 'name',
      direction: query.direction === 'desc' ? 'desc' : 'asc',
      searching: Boolean(query.search),
    };
    const key = `${shape.sort}:${shape.direction}:${String(shape.searching)}`;
    let prepared = pageQueries.get(key);
    if (!prepared) {
      prepared = new PreparedQuery(
        shape.searching ? ['pattern', 'limit', 'offset'] : ['limit', 'offset'],
        (db, slots) => pageQuery(db, shape, slots),
      );
      pageQueries.set(key, prepared);
    }
    return prepared.execute(this.db, {
      pattern: searchPattern(query.search),
      limit: query.limit,
      offset: query.offset,
    });
  }

  /** The last activity of each of the given users, by id (a page of the list kept, users/pages.ts). */
  async activityOf(ids: readonly number[]): Promise<Map<number, string | null>> {
    if (this.uow.batchesLookups) {
      const found = await this.#activity.getAll(ids);
      return new Map(ids.map((id, i) => [id, found[i] ?? null]));
    }
    const rows = await activityInJson.execute(this.db, { ids: JSON.stringify(ids) });
    return new Map(rows.map((r) => [r.id, r.last_activity_at]));
  }

  readonly #activity = new BatchedLookup<number, string | null>(async (ids) => {
    const rows = await activityInArray.execute(this.db, { ids: `{${ids.join(',')}}` });
    return new Map(rows.map((r) => [r.id, r.last_activity_at]));
  });

  /** Live users of a department, by name. */
  inDepartment(departmentId: number): Promise<UserRecord[]> {
    return this.base()
      .where('users.department_id', '=', departmentId)
      .orderBy('users.last_name')
      .orderBy('users.first_name')
      .orderBy('users.id')
      .execute();
  }

  /**
   * Live users (of a department, or all) with only what a list of people shows, in the order of
   * `list`: the analytics overview reads a whole company this way.
   */
  roster(departmentId?: number): Promise<ListedUser[]> {
    let q = this.db
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        'users.id',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.photo_path',
        'users.last_activity_at',
        'departments.name as department_name',
      ])
      .where('users.deleted_at', 'is', null);
    if (departmentId !== undefined) q = q.where('users.department_id', '=', departmentId);
    return q.orderBy('users.last_name').orderBy('users.first_name').orderBy('users.id').execute();
  }

  find(id: number): Promise<UserRecord | undefined> {
    return this.base().where('users.id', '=', id).executeTakeFirst();
  }

  /** Those of the given ids that are live users. */
  async existingIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Whether a live user's photo is this stored file. */
  async photoInUse(path: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('photo_path', '=', path)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .where('deleted_at', 'is', null);
    if (exceptId) q = q.where('id', '!=', exceptId);
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
    const row = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.password_hash;
  }

  async setPasswordHash(id: number, passwordHash: string, mustChange: boolean, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: mustChange, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Whether deadline reminder mails go to the user (issue 16); undefined for no live user. */
  async reminderMails(id: number): Promise<boolean | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('reminder_mails')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.reminder_mails;
  }

  /** Whether the weekly team digest goes to the user (issue 16); undefined for no live user. */
  async digestMails(id: number): Promise<boolean | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('digest_mails')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.digest_mails;
  }

  async setDigestMails(id: number, on: boolean, now: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ digest_mails: on, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Sets the user's own reminder preference; false when there is no such live user. */
  async setReminderMails(id: number, on: boolean, now: string): Promise<boolean> {
    const rows = await this.db
      .updateTable('users')
      .set({ reminder_mails: on, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** Ids of the live administrators; with `lock`, their rows stay locked until the unit ends (PostgreSQL). */
  async administratorIds(lock: boolean): Promise<number[]> {
    let q = this.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.code', '=', 'admin')
      .where('users.deleted_at', 'is', null);
    if (lock) q = q.forUpdate();
    return (await q.execute()).map((r) => r.id);
  }

  roles() {
    return this.db.selectFrom('roles').select(['id', 'name', 'code']).orderBy('id').execute();
  }
}
