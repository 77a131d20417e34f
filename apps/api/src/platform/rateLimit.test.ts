import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDb, dialectName } from '../test/harness.js';
import { DAY, HOUR, MINUTE } from './clock.js';
import { HttpError } from './errors.js';
import { PASSWORD_GATE_BUSY, PasswordGate } from './passwordGate.js';
import { PRUNE_EVERY_MS, RateLimiter, ipBucket } from './rateLimit.js';

describe('ipBucket', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped ones and cuts IPv6 to its /64', () => {
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:0db8:0001:0002:abcd:ef01:2345:6789')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipBucket('::1')).toBe('0:0:0:0::/64');
    expect(ipBucket('unknown')).toBe('unknown');
  });
});

describe('PasswordGate', () => {
  it('runs at most `concurrent` tasks, queues `waiting` more and refuses the rest with 429', async () => {
    const gate = new PasswordGate(2, 1);
    let active = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      gate.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((r) => releases.push(r));
        active--;
        return 'done';
      });
    const a = task();
    const b = task();
    const c = task();
    await expect(task()).rejects.toMatchObject({ statusCode: 429, message: PASSWORD_GATE_BUSY });
    await expect(gate.run(() => Promise.resolve(1), 'другой текст')).rejects.toBeInstanceOf(HttpError);
    await Promise.resolve();
    expect([gate.running, gate.queued, releases.length]).toEqual([2, 1, 2]);
    releases.shift()?.();
    await a;
    await new Promise((r) => setImmediate(r));
    expect([gate.running, gate.queued, releases.length]).toEqual([2, 0, 2]);
    for (const r of releases.splice(0)) r();
    await Promise.all([b, c]);
    expect(peak).toBe(2);
    expect([gate.running, gate.queued, gate.started]).toEqual([0, 0, 3]);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new PasswordGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve(7))).toBe(7);
    expect(gate.running).toBe(0);
  });
});

describe(`RateLimiter (${dialectName})`, () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ db, drop } = await createTestDb());
    await migrateToLatest(db.kysely, db.kind, db.schema);
  });
  afterEach(async () => {
    await drop();
  });

  it('counts in fixed windows, gives a hit back and refuses windows longer than a day', async () => {
    const limiter = new RateLimiter(db.kysely);
    const t0 = new Date('2026-01-15T09:00:00.000Z');
    expect(await limiter.hit('k', t0, MINUTE)).toBe(1);
    expect(await limiter.hit('k', t0, MINUTE)).toBe(2);
    await limiter.release('k');
    expect(await limiter.count('k', t0, MINUTE)).toBe(1);
    await limiter.release('k');
    await limiter.release('k');
    expect(await limiter.count('k', t0, MINUTE)).toBe(0);
    expect(await limiter.hit('k', new Date(t0.getTime() + MINUTE), MINUTE)).toBe(1);
    await expect(limiter.hit('k', t0, DAY + 1)).rejects.toThrow(RangeError);
    await expect(limiter.count('k', t0, 0)).rejects.toThrow(RangeError);
  });

  it('prunes expired windows at most once per PRUNE_EVERY_MS, from the hits themselves', async () => {
    const limiter = new RateLimiter(db.kysely);
    const t0 = new Date('2026-01-15T09:00:00.000Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    await limiter.hit('old', t0, HOUR);
    // Prunes (the last prune was a day ago) but 'old' is not a day old yet.
    await limiter.hit('day', at(DAY - 5 * MINUTE), DAY);
    const keys = async () =>
      (await db.kysely.selectFrom('rate_limits').select('key').orderBy('key').execute()).map((r) => r.key);
    // 'old' has expired by now, but the last prune was only six minutes ago.
    await limiter.hit('new', at(DAY + MINUTE), MINUTE);
    expect(await keys()).toEqual(['day', 'new', 'old']);
    await limiter.hit('new', at(DAY - 5 * MINUTE + PRUNE_EVERY_MS), MINUTE);
    expect(await keys()).toEqual(['day', 'new']);
    expect(await limiter.prune(at(3 * DAY))).toBe(2);
    expect(await keys()).toEqual([]);
  });
});
