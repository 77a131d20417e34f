import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { iso } from './clock.js';

/**
 * Fixed-window counters kept in the database, so that limits hold across several API processes.
 * Used for counting failures (sign-in, recovery codes), which a per-request limiter cannot do.
 */
export class RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  async count(key: string, now: Date, windowMs: number): Promise<number> {
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
    return row.hits;
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }
}
