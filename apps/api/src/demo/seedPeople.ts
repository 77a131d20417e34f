import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { DEPARTMENTS, GROUP, USERS, type DemoRole, type DeptKey, type UserKey } from './content.js';
import { must, namedRowId, type DemoTimes } from './seedKit.js';

/** A demo account as the loader reports it. */
export interface DemoAccount {
  email: string;
  role: string;
}

/** The demo e-mail of a local part, in the configured login domain. */
export const demoEmail = (config: Config, local: string): string => `${local}@${config.loginDomain}`.toLowerCase();

export async function anyExists(db: Kysely<Database>, emails: string[]): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', 'in', emails).executeTakeFirst();
  return row !== undefined;
}

/** The organisation as seeded: ids by the content's keys, and the accounts created. */
export interface SeededPeople {
  created: DemoAccount[];
  deptId(key: DeptKey): number;
  userId(key: UserKey): number;
  /** The demo's study group. */
  group: { id: number };
}

/**
 * Departments (one of the same name is reused), an administrator only when there is none, the
 * demo people and their study group. `hashes`: one password hash per demo user, then the admin's.
 */
export async function seedPeople(
  trx: Transaction<Database>,
  config: Config,
  { ago }: DemoTimes,
  hashes: readonly string[],
): Promise<SeededPeople> {
  const created: DemoAccount[] = [];

  const roleRows = await trx.selectFrom('roles').select(['id', 'code']).execute();
  const roleId = (code: DemoRole): number => {
    const row = roleRows.find((r) => r.code === code);
    if (!row) throw new Error(`Роль ${code} не найдена: миграции не применены?`);
    return row.id;
  };

  // ── departments (an existing department of the same name is reused) ──
  const deptIds = new Map<DeptKey, number>();
  for (const d of DEPARTMENTS) deptIds.set(d.key, await namedRowId(trx, 'departments', d, ago(120)));
  const deptId = (key: DeptKey): number => must(deptIds.get(key), key);

  // ── an administrator only when there is none ──
  const admin = await trx
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select('users.id')
    .where('roles.code', '=', 'admin')
    .executeTakeFirst();
  if (!admin) {
    const plain = demoEmail(config, 'admin');
    const taken = await anyExists(trx, [plain]);
    const email = taken ? demoEmail(config, 'admin.demo') : plain;
    const stamp = ago(150);
    await trx
      .insertInto('users')
      .values({
        first_name: 'Администратор',
        last_name: 'Главный',
        email,
        password_hash: hashes[USERS.length] ?? '',
        position: 'Администратор платформы',
        role_id: roleId('admin'),
        last_activity_at: ago(0.5),
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    created.push({ email, role: 'admin' });
  }

  // ── people ──
  const userIds = new Map<UserKey, number>();
  for (const [i, u] of USERS.entries()) {
    const email = demoEmail(config, u.local);
    const stamp = ago(u.createdDaysAgo);
    const row = await trx
      .insertInto('users')
      .values({
        first_name: u.firstName,
        last_name: u.lastName,
        email,
        password_hash: hashes[i] ?? '',
        position: u.position,
        department_id: deptId(u.dept),
        role_id: roleId(u.role),
        last_activity_at: u.lastActivityDaysAgo === null ? null : ago(u.lastActivityDaysAgo),
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.set(u.key, row.id);
    created.push({ email, role: u.role });
  }
  const userId = (key: UserKey): number => must(userIds.get(key), key);

  // ── study group ──
  const groupStamp = ago(GROUP.addedDaysAgo + 1);
  const group = await trx
    .insertInto('study_groups')
    .values({ name: GROUP.name, created_at: groupStamp, updated_at: groupStamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('group_users')
    .values(GROUP.members.map((m) => ({ group_id: group.id, user_id: userId(m), added_at: ago(GROUP.addedDaysAgo) })))
    .execute();

  return { created, deptId, userId, group };
}
