import type { RoleCode } from '@lms/contract';
import { sql, type InferResult, type Kysely } from 'kysely';
import { BatchedLookup } from '../db/batched.js';
import { PreparedQuery } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import { versionColumns, versionsOf, type ReadVersions } from '../db/versions.js';
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
  /**
   * Read with the session, before the request reads anything else (db/versions.ts), for the routes
   * that keep answers (route config `readsVersions`); undefined for the others.
   */
  versions: ReadVersions | undefined;
}

export interface NewSession {
  tokenHash: string;
  userId: number;
  remember: boolean;
  expiresAt: string;
  now: string;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Every request with a session cookie asks this: compiled once (db/prepared.ts). The routes that keep
 * answers also read the versions those depend on in the same statement (`versionedSelect`), so that a
 * request answered from what is kept costs this statement alone; the others do not pay for them.
 */
function sessionSelect(db: Kysely<Database>) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'sessions.token_hash',
      'sessions.id as session_id',
      'sessions.remember',
      'sessions.expires_at',
      'sessions.last_seen_at',
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
const versionedSelect = (db: Kysely<Database>) => sessionSelect(db).select((eb) => versionColumns(eb));
type SessionRow = InferResult<ReturnType<typeof sessionSelect>>[number];
type VersionedRow = InferResult<ReturnType<typeof versionedSelect>>[number];

const byToken = new PreparedQuery(['tokenHash'], (db, p: { tokenHash: string }) =>
  sessionSelect(db).where('sessions.token_hash', '=', p.tokenHash),
);
const versionedByToken = new PreparedQuery(['tokenHash'], (db, p: { tokenHash: string }) =>
  versionedSelect(db).where('sessions.token_hash', '=', p.tokenHash),
);
/** PostgreSQL: the sessions of the requests of one turn of the event loop at once (db/batched.ts). */
const byTokens = new PreparedQuery(['tokenHashes'], (db, p: { tokenHashes: readonly string[] }) =>
  sessionSelect(db).where(sql<boolean>`sessions.token_hash = any(${p.tokenHashes})`),
);
const versionedByTokens = new PreparedQuery(['tokenHashes'], (db, p: { tokenHashes: readonly string[] }) =>
  versionedSelect(db).where(sql<boolean>`sessions.token_hash = any(${p.tokenHashes})`),
);

function activeSession(row: SessionRow, versions: ReadVersions | undefined): ActiveSession {
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
      must_change_password: row.must_change_password,
    },
    versions,
  };
}

/** Lookups by token hash answered together on PostgreSQL (db/batched.ts) by `query`. */
function batchedBy<R extends { token_hash: string }>(
  uow: UnitOfWork,
  query: PreparedQuery<{ tokenHashes: readonly string[] }, R>,
): BatchedLookup<string, R> {
  return new BatchedLookup(async (tokenHashes) => {
    const rows = await query.execute(uow.db, { tokenHashes });
    return new Map(rows.map((r) => [r.token_hash, r]));
  });
}

/** The sessions table (DESIGN.md §6 "Sessions and CSRF"): only token hashes are stored. */
export class SessionRepository {
  readonly #batched: BatchedLookup<string, SessionRow>;
  readonly #batchedWithVersions: BatchedLookup<string, VersionedRow>;

  constructor(private readonly uow: UnitOfWork) {
    this.#batched = batchedBy(uow, byTokens);
    this.#batchedWithVersions = batchedBy(uow, versionedByTokens);
  }

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
        created_at: input.now,
        updated_at: input.now,
      })
      .execute();
    await this.markActive(input.userId, input.now);
  }

  /** The session of a token hash with its (live) user, and the versions when asked for. */
  async find(tokenHash: string, withVersions = false): Promise<ActiveSession | undefined> {
    const batched = this.uow.batchesLookups;
    if (withVersions) {
      const row = batched
        ? await this.#batchedWithVersions.get(tokenHash)
        : await versionedByToken.executeTakeFirst(this.db, { tokenHash });
      return row && activeSession(row, versionsOf(row));
    }
    const row = batched ? await this.#batched.get(tokenHash) : await byToken.executeTakeFirst(this.db, { tokenHash });
    return row && activeSession(row, undefined);
  }

  /** Marks the session and its user as active (the caller writes at most once a minute). */
  async touch(sessionId: number, userId: number, now: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt, updated_at: now })
      .where('id', '=', sessionId)
      .execute();
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
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The session of a cookie, or null when it is unknown or expired (an expired one is removed); with
   * the versions kept answers depend on when `withVersions`.
   */
  async resolve(token: string, withVersions = false): Promise<ActiveSession | null> {
    const session = await this.sessions.find(sha256(token), withVersions);
    if (!session) return null;
    const now = this.clock.now();
    if (new Date(session.expiresAt).getTime() <= now.getTime()) {
      await this.sessions.deleteById(session.sessionId);
      return null;
    }
    if (now.getTime() - new Date(session.lastSeenAt).getTime() >= TOUCH_EVERY_MS) {
      const expiresAt = session.remember ? session.expiresAt : iso(addMs(now, IDLE_MS));
      await this.uow.run(() => this.sessions.touch(session.sessionId, session.user.id, iso(now), expiresAt));
    }
    return session;
  }
}
