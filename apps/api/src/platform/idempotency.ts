import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { DAY, iso, type Clock } from './clock.js';
import { HttpError } from './errors.js';

/**
 * Idempotency keys of POSTs (docs/decisions.md §Several processes). A browser resends a request whose
 * kept-alive connection the balancer closed without an answer — what HAProxy does when the process
 * handling it dies — whatever its method, with the same headers. The web client puts a new key on
 * every POST, so a resend carries the key of a request that may already have been applied: it gets
 * the first answer again, or 409 while the first is under way or was cut off, and never runs twice.
 *
 * Owner of `idempotency_keys`. Only routes that need a session take part: a key belongs to a user,
 * and a public route's answer may set cookies (sign-in), which a replay would not give back.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'idempotent-replay';
/** How long a key holds; an older one is new again, and the periodic pass deletes it. */
export const KEY_LIFETIME_MS = DAY;
/** The largest answer kept for a replay; a larger one is replayed as its status alone. */
export const MAX_STORED_BODY_BYTES = 64 * 1024;
const KEY_FORMAT = /^[A-Za-z0-9-]{1,64}$/;

export const IDEMPOTENCY_MESSAGES = {
  badKey: 'Некорректный заголовок Idempotency-Key: нужно от 1 до 64 латинских букв, цифр или дефисов',
  inProgress: 'Этот запрос уже выполняется или был прерван. Обновите страницу и проверьте результат',
  otherRequest: 'Этот ключ Idempotency-Key уже использован для другого запроса',
} as const;

export type Claim =
  { kind: 'claimed' } | { kind: 'running' } | { kind: 'other' } | { kind: 'done'; status: number; body: string | null };

/** What is counted (platform/metrics.ts): answers replayed and requests refused as under way. */
export interface IdempotencyCounts {
  idempotency(outcome: 'replayed' | 'in_progress'): void;
}

interface Held {
  userId: number;
  key: string;
}

export class IdempotencyKeys {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims (user, key) for `request` in one statement, so two processes cannot both claim it; a row
   * older than the key's lifetime is taken over as if it were absent.
   */
  async claim(userId: number, key: string, request: string): Promise<Claim> {
    const now = this.clock.now();
    const at = iso(now);
    const expired = iso(new Date(now.getTime() - KEY_LIFETIME_MS));
    for (let tries = 0; tries < 2; tries++) {
      const claimed = await this.db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request, created_at: at, status: null, body: null })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'key'])
            .doUpdateSet({ request, created_at: at, status: null, body: null })
            .where('idempotency_keys.created_at', '<=', expired),
        )
        .returning('user_id')
        .executeTakeFirst();
      if (claimed) return { kind: 'claimed' };
      const row = await this.db
        .selectFrom('idempotency_keys')
        .select(['request', 'status', 'body'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      // Gone in between: its request failed and gave the key back; claim it again.
      if (!row) continue;
      if (row.request !== request) return { kind: 'other' };
      if (row.status === null) return { kind: 'running' };
      return { kind: 'done', status: row.status, body: row.body };
    }
    return { kind: 'running' };
  }

  async complete(held: Held, status: number, body: string | null): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status, body })
      .where('user_id', '=', held.userId)
      .where('key', '=', held.key)
      .execute();
  }

  /** Gives the key back: a refused or failed request may be sent again, corrected, with it. */
  async release(held: Held): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', held.userId)
      .where('key', '=', held.key)
      .where('status', 'is', null)
      .execute();
  }

  /** Deletes expired keys (the periodic pass); answers how many went. */
  async prune(): Promise<number> {
    const expired = iso(new Date(this.clock.now().getTime() - KEY_LIFETIME_MS));
    const result = await this.db.deleteFrom('idempotency_keys').where('created_at', '<=', expired).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** The JSON answer as sent, when it is small enough to keep. */
function storedBody(reply: FastifyReply, payload: unknown): string | null {
  const type = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !type.startsWith('application/json')) return null;
  return Buffer.byteLength(payload) <= MAX_STORED_BODY_BYTES ? payload : null;
}

/**
 * The hooks, registered after installSecurity (platform/security.ts): its onRequest hook has checked
 * the session, CSRF and access by then. The claim is made before the body is read, so a multipart
 * upload is claimed before it streams. Returns the keys' owner, for the periodic pass.
 */
export function installIdempotency(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; clock: Clock; counts?: IdempotencyCounts },
): IdempotencyKeys {
  const keys = new IdempotencyKeys(deps.db, deps.clock);
  const held = new WeakMap<FastifyRequest, Held>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    const session = await request.currentSession();
    if (!session) return;
    if (typeof header !== 'string' || !KEY_FORMAT.test(header)) throw new HttpError(400, IDEMPOTENCY_MESSAGES.badKey);
    // The address as sent, ids included: a resend repeats it exactly; the same key on another
    // course's address is another request, never the first one's answer.
    const claim = await keys.claim(session.user.id, header, `POST ${request.url}`);
    switch (claim.kind) {
      case 'claimed':
        held.set(request, { userId: session.user.id, key: header });
        return;
      case 'running':
        deps.counts?.idempotency('in_progress');
        throw new HttpError(409, IDEMPOTENCY_MESSAGES.inProgress);
      case 'other':
        throw new HttpError(422, IDEMPOTENCY_MESSAGES.otherRequest);
      case 'done':
        deps.counts?.idempotency('replayed');
        reply.code(claim.status).header(REPLAY_HEADER, 'true');
        if (claim.body === null) return reply.send();
        return reply.type('application/json; charset=utf-8').send(claim.body);
    }
  });

  // Before the answer leaves: a resend that arrives after it finds the key complete or given back.
  app.addHook('onSend', async (request, reply, payload) => {
    const mine = held.get(request);
    if (!mine) return payload;
    held.delete(request);
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300) {
        await keys.complete(mine, reply.statusCode, storedBody(reply, payload));
      } else {
        await keys.release(mine);
      }
    } catch (err) {
      // The answer still goes: the key stays claimed, and a resend gets 409 rather than a second run.
      request.log.error({ err }, 'idempotency key not recorded');
    }
    return payload;
  });

  return keys;
}
