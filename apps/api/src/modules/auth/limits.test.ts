import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, iso } from '../../platform/clock.js';
import { PASSWORD_GATE_BUSY, passwordGate } from '../../platform/passwordGate.js';
import { PRUNE_EVERY_MS } from '../../platform/rateLimit.js';
import {
  Client,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  dialectName,
  type TestContext,
} from '../../test/harness.js';

const PER_IP = 'Слишком много попыток входа. Попробуйте позже.';
const RECOVERY_TOO_MANY = 'Слишком много запросов. Попробуйте позже.';
const random = () => Math.random().toString(36).slice(2, 10);

/** docs/rules.md §Sessions and CSRF: sign-in and recovery limited per address and overall. */
describe(`sign-in and recovery limits per address and overall (${dialectName})`, () => {
  let ctx: TestContext;
  let client: Client;
  // Behind one trusted proxy, so that each test chooses the address a request comes from.
  beforeEach(async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    client = new Client(ctx.app);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const signIn = (login: string, password: string, ip: string) =>
    client.post('/login', { login, password, remember: false }, from(ip));

  it('a parallel flood of random logins from one address runs at most 30 password checks', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    await client.get('/api/check-auth');
    const checksBefore = passwordGate.started;
    const flood = await Promise.all(
      Array.from({ length: 45 }, () => signIn(`${random()}@example.com`, 'whatever-1', '198.51.100.7')),
    );
    const checks = passwordGate.started - checksBefore;
    expect(checks).toBeLessThanOrEqual(30);
    expect(flood.every((r) => r.statusCode === 422 || r.statusCode === 429)).toBe(true);
    const refused = flood.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(15);
    for (const r of refused) expect([PER_IP, PASSWORD_GATE_BUSY]).toContain(r.json().result.message);

    // A real user elsewhere is not held up; the flooding address waits a minute, right password or not.
    expect((await signIn(user.email, DEFAULT_PASSWORD, '203.0.113.9')).statusCode).toBe(200);
    const blocked = await signIn(user.email, DEFAULT_PASSWORD, '198.51.100.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().result.message).toBe(PER_IP);
    expect(passwordGate.started - checksBefore).toBe(checks + 1);
    ctx.clock.advance(MINUTE);
    expect((await signIn(user.email, DEFAULT_PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('counts IPv6 addresses by their /64, so that fresh addresses of one subscriber share a budget', async () => {
    await client.get('/api/check-auth');
    for (let i = 0; i < 30; i++) {
      const res = await signIn(`${random()}@example.com`, 'whatever-1', `2001:db8:1:2::${(i + 1).toString(16)}`);
      expect(res.statusCode).toBe(422);
    }
    const next = await signIn(`${random()}@example.com`, 'whatever-1', '2001:db8:1:2:ffff::1');
    expect(next.statusCode).toBe(429);
    expect((await signIn(`${random()}@example.com`, 'whatever-1', '2001:db8:1:3::1')).statusCode).toBe(422);
  });

  it('successful sign-ins give their attempt back, so one office address is not locked out', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    for (let i = 0; i < 33; i++) {
      expect((await signIn(user.email, DEFAULT_PASSWORD, '192.0.2.50')).statusCode).toBe(200);
    }
  });

  it('recovery calls spend the same per-address budget as sign-in', async () => {
    await client.get('/api/check-auth');
    for (let i = 0; i < 26; i++) {
      expect((await signIn(`${random()}@example.com`, 'whatever-1', '192.0.2.77')).statusCode).toBe(422);
    }
    const recover = () =>
      client.post('/api/password/recovery-request', { email: `${random()}@example.com` }, from('192.0.2.77'));
    for (let i = 0; i < 3; i++) expect((await recover()).statusCode).toBe(200);
    const check = await client.post(
      '/api/password/check-pin',
      { email: `${random()}@example.com`, pin_code: '123456' },
      from('192.0.2.77'),
    );
    expect(check.statusCode).toBe(422);
    const over = await recover();
    expect(over.statusCode).toBe(429);
    expect(over.json().result.message).toBe(RECOVERY_TOO_MANY);
    expect((await signIn(`${random()}@example.com`, 'whatever-1', '192.0.2.77')).statusCode).toBe(429);
    expect(ctx.mailer.sent).toHaveLength(0);
  });

  it('refuses with 429 instead of queueing when the process already hashes at its limit', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    await client.get('/api/check-auth');
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const holders = Array.from({ length: passwordGate.concurrent + passwordGate.waiting }, () =>
      passwordGate.run(() => held),
    );
    try {
      expect(passwordGate.running).toBe(passwordGate.concurrent);
      expect(passwordGate.queued).toBe(passwordGate.waiting);
      const res = await signIn(user.email, DEFAULT_PASSWORD, '192.0.2.10');
      expect(res.statusCode).toBe(429);
      expect(res.json().result).toEqual({ success: false, message: PASSWORD_GATE_BUSY });
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(passwordGate.running).toBe(0);
    expect((await signIn(user.email, DEFAULT_PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('prunes expired limit rows and keeps live ones', async () => {
    await client.get('/api/check-auth');
    await signIn('old-one@example.com', 'whatever-1', '192.0.2.1');
    const keys = async () =>
      (await ctx.db.kysely.selectFrom('rate_limits').select('key').orderBy('key').execute()).map((r) => r.key);
    expect(await keys()).toEqual(['attempts:ip:192.0.2.1', 'login:old-one@example.com:192.0.2.1']);

    ctx.clock.advance(DAY + PRUNE_EVERY_MS);
    // A day-long window that started an hour ago is still live and must survive the prune.
    await ctx.db.kysely
      .insertInto('rate_limits')
      .values({
        key: 'recovery:fail-day:live@example.com',
        hits: 3,
        window_started_at: iso(new Date(ctx.clock.now().getTime() - HOUR)),
      })
      .execute();
    await signIn('new-one@example.com', 'whatever-1', '192.0.2.2');
    expect(await keys()).toEqual([
      'attempts:ip:192.0.2.2',
      'login:new-one@example.com:192.0.2.2',
      'recovery:fail-day:live@example.com',
    ]);
  });
});
