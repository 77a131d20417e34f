import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import type { Database } from './db/schema.js';
import { buildLearningStates } from './modules/progress/standalone.js';
import { systemClock, type Clock } from './platform/clock.js';
import { generatePassword, hashPassword } from './platform/passwords.js';

/**
 * The database as the code needs it at start-up (the server, `npm run demo`, the benches, tests):
 * the migrations, then what they leave to the code that keeps derived tables (the learning state,
 * modules/progress/standalone.ts). Returns the migrations applied.
 */
export async function prepareDatabase(
  db: Pick<Db, 'kysely' | 'kind' | 'schema'>,
  clock: Clock = systemClock,
): Promise<string[]> {
  const applied = await migrateToLatest(db.kysely, db.kind, db.schema);
  await buildLearningStates(db.kysely, applied, clock);
  return applied;
}

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated here (to be printed once). */
  generatedPassword: string | null;
}

/** On a start with no users, creates the first administrator (ADMIN_EMAIL/ADMIN_PASSWORD or generated). */
export async function ensureFirstAdmin(db: Kysely<Database>, config: Config, clock: Clock): Promise<FirstAdmin | null> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const email = config.adminEmail ?? `admin@${config.loginDomain}`;
  const generatedPassword = config.adminPassword ? null : generatePassword(16);
  const password = config.adminPassword ?? generatedPassword ?? '';
  const role = await db.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
  const now = clock.now().toISOString();
  await db
    .insertInto('users')
    .values({
      first_name: 'Администратор',
      last_name: 'Главный',
      email,
      password_hash: await hashPassword(password),
      position: 'Администратор платформы',
      role_id: role.id,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { email, generatedPassword };
}
