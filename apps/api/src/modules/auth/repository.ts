import type { Kysely } from 'kysely';
import type { RoleCode } from '@lms/contract';
import type { Database } from '../../db/schema.js';

export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: RoleCode;
  role_name: string;
  department_id: number | null;
  password_hash: string;
}

export interface ActiveSession {
  sessionId: number;
  remember: boolean;
  expiresAt: string;
  lastSeenAt: string;
  user: SessionUser;
}

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private userQuery() {
    return this.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.department_id',
        'users.password_hash',
        'roles.code as role',
        'roles.name as role_name',
      ]);
  }

  async findUserByEmail(email: string): Promise<SessionUser | undefined> {
    const row = await this.userQuery().where('users.email', '=', email.toLowerCase()).executeTakeFirst();
    return row ? { ...row, role: row.role as RoleCode } : undefined;
  }

  async createSession(input: {
    tokenHash: string;
    userId: number;
    remember: boolean;
    expiresAt: string;
    now: string;
    ip: string | null;
    userAgent: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: input.tokenHash,
        user_id: input.userId,
        remember: input.remember,
        expires_at: input.expiresAt,
        last_seen_at: input.now,
        ip: input.ip,
        user_agent: input.userAgent,
        created_at: input.now,
        updated_at: input.now,
      })
      .execute();
  }

  async findSession(tokenHash: string): Promise<ActiveSession | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'sessions.id as session_id',
        'sessions.remember',
        'sessions.expires_at',
        'sessions.last_seen_at',
        'users.id',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.department_id',
        'users.password_hash',
        'roles.code as role',
        'roles.name as role_name',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_id, remember, expires_at, last_seen_at, ...user } = row;
    return {
      sessionId: session_id,
      remember,
      expiresAt: expires_at,
      lastSeenAt: last_seen_at,
      user: { ...user, role: user.role as RoleCode },
    };
  }

  /** Marks the session and its user as active; one write per minute at most (the caller decides). */
  async touch(sessionId: number, userId: number, now: string, expiresAt: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sessions')
        .set({ last_seen_at: now, expires_at: expiresAt, updated_at: now })
        .where('id', '=', sessionId)
        .execute();
      await trx.updateTable('users').set({ last_activity_at: now }).where('id', '=', userId).execute();
    });
  }

  async setLastActivity(userId: number, now: string): Promise<void> {
    await this.db.updateTable('users').set({ last_activity_at: now }).where('id', '=', userId).execute();
  }

  async deleteSessionById(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  async deleteSessionByHash(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteSessionsOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }
}
