import { isIPv4, isIPv6 } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { DAY, MINUTE, iso } from './clock.js';

/**
 * The longest window any limit may use. A row whose window started this long ago is expired for
 * every key, so pruning needs no per-key window length (the table stores only the start).
 */
export const LONGEST_WINDOW_MS = DAY;
/** Expired windows are deleted by the first hit after this much time, not by every hit. */
export const PRUNE_EVERY_MS = 10 * MINUTE;

/**
 * Sign-in and recovery attempts of one address share one budget, counted before any password or
 * code check, so that a spray of random logins from one address cannot queue password hashing
 * (docs/rules.md §Sessions and CSRF). A successful sign-in gives its attempt back, so that an
 * office behind one NAT address is not locked out by its own colleagues signing in at nine.
 */
export const IP_ATTEMPTS_PER_MINUTE = 30;
export const ipAttemptsKey = (ip: string): string => `attempts:ip:${ipBucket(ip)}`;

/**
 * The part of an address that one client controls: an IPv4 address (also when IPv4-mapped), or
 * the /64 prefix of an IPv6 address, since one subscriber usually holds a whole /64 and could
 * otherwise take a fresh address for every attempt.
 */
export function ipBucket(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const before = groups(head);
  let after: string[] = [];
  if (tail !== undefined) {
    after = groups(tail);
    // An embedded IPv4 tail stands for two groups; it is never in the first 64 bits of the fill.
    const width = after.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    before.push(...Array<string>(Math.max(0, 8 - before.length - width)).fill('0'));
  }
  const full = [...before, ...after];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Fixed-window counters kept in the database, so that limits hold across several API processes.
 * Used for counting failures (sign-in, recovery codes), which a per-request limiter cannot do.
 * Expired windows are pruned by the hits themselves (at most once per PRUNE_EVERY_MS of the
 * injected clock), so the table stays as small as the set of live keys without a timer.
 */
export class RateLimiter {
  /** Clock time of the last prune; -Infinity: the first hit prunes. */
  #lastPruneMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly db: Kysely<Database>) {}

  async count(key: string, now: Date, windowMs: number): Promise<number> {
    checkWindow(windowMs);
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['hits', 'window_started_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row || new Date(row.window_started_at).getTime() + windowMs <= now.getTime()) return 0;
    return row.hits;
  }

  /** Adds a hit and returns the count in the current window. */
  async hit(key: string, now: Date, windowMs: number): Promise<number> {
    checkWindow(windowMs);
    const cutoff = iso(new Date(now.getTime() - windowMs));
    const at = iso(now);
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, hits: 1, window_started_at: at })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when rate_limits.window_started_at <= ${cutoff} then 1 else rate_limits.hits + 1 end`,
          window_started_at: sql<string>`case when rate_limits.window_started_at <= ${cutoff} then ${at} else rate_limits.window_started_at end`,
        }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    if (now.getTime() - this.#lastPruneMs >= PRUNE_EVERY_MS) {
      // Set before the delete runs, so that parallel hits do not all prune.
      this.#lastPruneMs = now.getTime();
      await this.prune(now);
    }
    return row.hits;
  }

  /**
   * Spends one of the attempts sign-in and recovery share per address (IP_ATTEMPTS_PER_MINUTE),
   * before any password or code is checked; false when the address has none left this minute.
   */
  async spendIpAttempt(ip: string, now: Date): Promise<boolean> {
    return (await this.hit(ipAttemptsKey(ip), now, MINUTE)) <= IP_ATTEMPTS_PER_MINUTE;
  }

  /** Gives the attempt of a successful sign-in back (an office behind one address is not locked out). */
  async giveIpAttemptBack(ip: string): Promise<void> {
    await this.release(ipAttemptsKey(ip));
  }

  /** Gives one hit of the current window back (an attempt that turned out to be legitimate). */
  async release(key: string): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', '=', key)
      .where('hits', '>', 0)
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Deletes every row whose window has expired for any limit; answers how many went. */
  async prune(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limits')
      .where('window_started_at', '<=', iso(new Date(now.getTime() - LONGEST_WINDOW_MS)))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** A longer window would be cut short by pruning; a programming error, not a request's. */
function checkWindow(windowMs: number): void {
  if (!(windowMs > 0 && windowMs <= LONGEST_WINDOW_MS)) {
    throw new RangeError(`rate limit window ${windowMs} ms is outside (0, ${LONGEST_WINDOW_MS}]`);
  }
}
