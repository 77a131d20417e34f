import type { RoleCode } from '@lms/contract';
import type { InferResult, Kysely } from 'kysely';
import { PreparedQuery } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import type { UnitOfWork } from '../db/unitOfWork.js';
import { DAY, HOUR, MINUTE, addMs, iso, type Clock } from './clock.js';
import { sha256 } from './tokens.js';

export const REMEMBER_MS = 30 * DAY;
export const IDLE_MS = 12 * HOUR;
/** Activity is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = MINUTE;

/** The signed-in user as every route sees it: no password hash ever leaves the sign-in check. */
export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: RoleCode;
  role_name: string;
  department_id: number | null;
  /** The password came by mail from an administrator: only the own-password call is open (security.ts). */
  must_change_password: boolean;
}

export interface ActiveSession {
  sessionId: number;
  remember: boolean;
  expiresAt: string;
  lastSeenAt: string;
  user: SessionUser;
}

export interface NewSession {
  tokenHash: string;
  userId: number;
  remember: boolean;
  expiresAt: string;
  now: string;
  ip: string | null;
  userAgent: string | null;
  /** How the user signed in (issue 33); the platform's password when not given. */
  method?: 'password' | 'ldap' | 'oidc';
}

/** Every request with a session cookie asks this: compiled once (db/prepared.ts), one indexed read. */
function sessionSelect(db: Kysely<Database>) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'sessions.id as session_id',
      'sessions.remember',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'sessions.method',
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.department_id',
      'users.must_change_password',
      'roles.code as role',
      'roles.name as role_name',
    ])
    .where('users.deleted_at', 'is', null);
}
type SessionRow = InferResult<ReturnType<typeof sessionSelect>>[number];

const byToken = new PreparedQuery(['tokenHash'], (db, p: { tokenHash: string }) =>
  sessionSelect(db).where('sessions.token_hash', '=', p.tokenHash),
);

function activeSession(row: SessionRow): ActiveSession {
  const { session_id, remember, expires_at, last_seen_at, id, email, first_name, last_name, department_id } = row;
  return {
    sessionId: session_id,
    remember,
    expiresAt: expires_at,
    lastSeenAt: last_seen_at,
    user: {
      id,
      email,
      first_name,
      last_name,
      department_id,
      role: row.role as RoleCode,
      role_name: row.role_name,
      // A password mailed by an administrator is the platform's: who signed in through the
      // directory or the identity provider has no use for their own.
      must_change_password: row.must_change_password && row.method === 'password',
    },
  };
}

/** The sessions table (docs/rules.md §Sessions and CSRF): only token hashes are stored. */
export class SessionRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  /** A new session (a sign-in): its user is active from now. */
  async create(input: NewSession): Promise<void> {
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
        method: input.method ?? 'password',
        created_at: input.now,
        updated_at: input.now,
      })
      .execute();
    await this.markActive(input.userId, input.now);
  }

  /** The session of a token hash with its (live) user. */
  async find(tokenHash: string): Promise<ActiveSession | undefined> {
    const row = await byToken.executeTakeFirst(this.db, { tokenHash });
    return row && activeSession(row);
  }

  /**
   * Marks the session and its user as active (the caller writes at most once a minute). The two marks
   * need no common transaction, each being true by itself: on PostgreSQL they are one statement (one
   * round trip instead of a transaction's four: a third of a cold home page's time there); SQLite,
   * which has no writing CTE, takes two statements.
   */
  async touch(sessionId: number, userId: number, now: string, expiresAt: string): Promise<void> {
    const seen = { last_seen_at: now, expires_at: expiresAt, updated_at: now };
    if (this.uow.kind === 'postgres') {
      await this.db
        .with('seen', (db) => db.updateTable('sessions').set(seen).where('id', '=', sessionId).returning('user_id'))
        .updateTable('users')
        .set({ last_activity_at: now })
        .where('id', 'in', (eb) => eb.selectFrom('seen').select('user_id'))
        .execute();
      return;
    }
    await this.db.updateTable('sessions').set(seen).where('id', '=', sessionId).execute();
    await this.markActive(userId, now);
  }

  /** The one writer of `users.last_activity_at`: a session opened or used marks its user active. */
  private async markActive(userId: number, now: string): Promise<void> {
    await this.db.updateTable('users').set({ last_activity_at: now }).where('id', '=', userId).execute();
  }

  async deleteById(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  async deleteByHash(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends every session of a user, except the one given (a password change keeps the current one). */
  async deleteAllOf(userId: number, exceptSessionId?: number): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptSessionId !== undefined) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
  }
}

/** Turns a session cookie into the signed-in user, keeping the idle limit and last activity. */
export class SessionResolver {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  /** The session of a cookie, or null when it is unknown or expired (an expired one is removed). */
  async resolve(token: string): Promise<ActiveSession | null> {
    const session = await this.sessions.find(sha256(token));
    if (!session) return null;
    const now = this.clock.now();
    if (new Date(session.expiresAt).getTime() <= now.getTime()) {
      await this.sessions.deleteById(session.sessionId);
      return null;
    }
    if (now.getTime() - new Date(session.lastSeenAt).getTime() >= TOUCH_EVERY_MS) {
      const expiresAt = session.remember ? session.expiresAt : iso(addMs(now, IDLE_MS));
      await this.sessions.touch(session.sessionId, session.user.id, iso(now), expiresAt);
    }
    return session;
  }
}
