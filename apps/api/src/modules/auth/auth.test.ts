import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../platform/clock.js';
import {
  Client,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  dialectName,
  queriesDuring,
  type TestContext,
} from '../../test/harness.js';

describe(`sign-in and sessions (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('a guest is not authenticated', async () => {
    const res = await new Client(ctx.app).get('/api/check-auth');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ authenticated: false, name: '' });
  });

  it('signs in, answers the user data and check-auth knows the user', async () => {
    const user = await createUser(ctx.db, { role: 'manager', first_name: 'Анна', last_name: 'Смирнова' });
    const client = new Client(ctx.app);
    const res = await client.post('/login', {
      login: user.email.toUpperCase(),
      password: DEFAULT_PASSWORD,
      remember: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: { success: true, message: 'Вы успешно авторизованы' },
      user: {
        authenticated: true,
        id: user.id,
        name: 'Смирнова Анна',
        first_name: 'Анна',
        last_name: 'Смирнова',
        email: user.email,
        role: 'manager',
        roles_ru: 'Руководитель',
        permissions: ['learning', 'profile', 'analytics.view'],
        must_change_password: false,
      },
    });
    const me = await client.get('/api/check-auth');
    expect(me.json()).toMatchObject({ authenticated: true, id: user.id, roles_ru: 'Руководитель' });
    const last = await ctx.db.kysely
      .selectFrom('users')
      .select('last_activity_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(last.last_activity_at).toBe(ctx.clock.now().toISOString());
  });

  it('a request marks its session and only its user active, at most once a minute', async () => {
    const [anna, boris] = [
      await createUser(ctx.db, { role: 'learner' }),
      await createUser(ctx.db, { role: 'learner' }),
    ];
    const [a, b] = [new Client(ctx.app), new Client(ctx.app)];
    await a.signIn(anna.email);
    await b.signIn(boris.email);
    const signedIn = ctx.clock.now().toISOString();
    const marks = async () => ({
      users: await ctx.db.kysely.selectFrom('users').select(['id', 'last_activity_at']).orderBy('id').execute(),
      sessions: await ctx.db.kysely
        .selectFrom('sessions')
        .select(['user_id', 'last_seen_at'])
        .orderBy('user_id')
        .execute(),
    });
    ctx.clock.advance(30_000);
    await a.get('/api/menu');
    expect(await marks()).toEqual({
      users: [
        { id: anna.id, last_activity_at: signedIn },
        { id: boris.id, last_activity_at: signedIn },
      ],
      sessions: [
        { user_id: anna.id, last_seen_at: signedIn },
        { user_id: boris.id, last_seen_at: signedIn },
      ],
    });
    ctx.clock.advance(MINUTE);
    const seen = ctx.clock.now().toISOString();
    const touch = await queriesDuring(() => a.get('/api/menu'));
    expect(touch.filter((q) => /^\s*(with|update)\b/i.test(q))).toHaveLength(ctx.db.kind === 'postgres' ? 1 : 2);
    expect(await marks()).toEqual({
      users: [
        { id: anna.id, last_activity_at: seen },
        { id: boris.id, last_activity_at: signedIn },
      ],
      sessions: [
        { user_id: anna.id, last_seen_at: seen },
        { user_id: boris.id, last_seen_at: signedIn },
      ],
    });
  });

  it('stores only a hash of the session token, in an httpOnly cookie', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    const res = await client.signIn(user.email);
    const cookie = res.cookies.find((c) => c.name === 'lms_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.maxAge).toBeUndefined();
    const rows = await ctx.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toBe(cookie?.value);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('remember me keeps the session 30 days, not longer', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    const res = await client.signIn(user.email, DEFAULT_PASSWORD, true);
    expect(res.cookies.find((c) => c.name === 'lms_session')?.maxAge).toBe(30 * 24 * 3600);
    ctx.clock.advance(29 * DAY);
    expect((await client.get('/api/check-auth')).json().authenticated).toBe(true);
    ctx.clock.advance(1 * DAY + MINUTE);
    expect((await client.get('/api/check-auth')).json().authenticated).toBe(false);
    expect((await client.get('/api/menu')).statusCode).toBe(401);
  });

  it('without remember me the session ends after 12 idle hours and activity extends it', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    await client.signIn(user.email, DEFAULT_PASSWORD, false);
    ctx.clock.advance(11 * HOUR);
    expect((await client.get('/api/menu')).statusCode).toBe(200);
    ctx.clock.advance(11 * HOUR);
    expect((await client.get('/api/menu')).statusCode).toBe(200);
    ctx.clock.advance(12 * HOUR + MINUTE);
    expect((await client.get('/api/menu')).statusCode).toBe(401);
    expect(await ctx.db.kysely.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('issues a new token at every sign-in and the old one stops working', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    await client.signIn(user.email);
    const first = client.cookies.get('lms_session');
    await client.signIn(user.email);
    const second = client.cookies.get('lms_session');
    expect(second).not.toBe(first);
    const stale = new Client(ctx.app);
    stale.cookies.set('lms_session', first ?? '');
    expect((await stale.get('/api/menu')).statusCode).toBe(401);
  });

  it('wrong password and unknown login get the same 422 answer', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    const wrong = await client.post('/login', { login: user.email, password: 'nope-nope', remember: true });
    const unknown = await client.post('/login', { login: 'ghost@example.com', password: 'nope-nope', remember: true });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().result).toEqual({ success: false, message: 'Неверный логин или пароль' });
    }
    expect(await ctx.db.kysely.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('five failures a minute per login and IP give 429, even for the right password', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    for (let i = 0; i < 5; i++) {
      expect(
        (await client.post('/login', { login: user.email, password: 'bad-password', remember: false })).statusCode,
      ).toBe(422);
    }
    const blocked = await client.post('/login', { login: user.email, password: DEFAULT_PASSWORD, remember: false });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().result.message).toBe('Слишком много неудачных попыток входа. Попробуйте через минуту.');
    const other = await createUser(ctx.db, { role: 'learner' });
    expect(
      (await client.post('/login', { login: other.email, password: DEFAULT_PASSWORD, remember: false })).statusCode,
    ).toBe(200);
    ctx.clock.advance(MINUTE);
    expect(
      (await client.post('/login', { login: user.email, password: DEFAULT_PASSWORD, remember: false })).statusCode,
    ).toBe(200);
  });

  it('parallel wrong passwords still meet the limit', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    await client.get('/api/check-auth');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post('/login', { login: user.email, password: 'bad-password', remember: false }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 422).length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.statusCode === 429).length).toBeGreaterThanOrEqual(15);
  });

  it('a forged X-Forwarded-For neither escapes the limit nor breaks sign-in', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    for (let i = 0; i < 5; i++) {
      await client.post(
        '/login',
        { login: user.email, password: 'bad-password' },
        { 'x-forwarded-for': `10.0.0.${i}` },
      );
    }
    const sixth = await client.post(
      '/login',
      { login: user.email, password: 'bad-password' },
      { 'x-forwarded-for': '10.9.9.9' },
    );
    expect(sixth.statusCode).toBe(429);
  });

  it('behind a proxy (TRUST_PROXY=1) takes the address the proxy saw, whatever its length', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const user = await createUser(proxied.db, { role: 'learner' });
      const client = new Client(proxied.app);
      const res = await client.post(
        '/login',
        { login: user.email, password: DEFAULT_PASSWORD, remember: false },
        { 'x-forwarded-for': `${'f'.repeat(200)}, 203.0.113.7` },
      );
      expect(res.statusCode).toBe(200);
      const session = await proxied.db.kysely.selectFrom('sessions').select('ip').executeTakeFirstOrThrow();
      expect(session.ip).toBe('203.0.113.7');
    } finally {
      await proxied.close();
    }
  });

  it('requests at once each get their own session, an unknown or ended one none (one lookup each)', async () => {
    const clients: { client: Client; id: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const user = await createUser(ctx.db, { role: 'learner', first_name: `Имя${i}` });
      const client = new Client(ctx.app);
      await client.signIn(user.email, DEFAULT_PASSWORD);
      clients.push({ client, id: user.id });
    }
    // The last one signs out; its token is then sent again, as a stolen cookie would be.
    const last = clients.pop();
    const token = last?.client.cookies.get('lms_session') ?? '';
    expect((await last?.client.post('/api/logout'))?.statusCode).toBe(200);
    const ended = new Client(ctx.app);
    ended.cookies.set('lms_session', token);
    const guest = new Client(ctx.app);
    let answers: { name: string; authenticated: boolean }[] = [];
    const queries = await queriesDuring(async () => {
      answers = await Promise.all(
        [...clients.map((c) => c.client), ...clients.map((c) => c.client), ended, guest].map(
          async (c) => (await c.get('/api/check-auth')).json() as { name: string; authenticated: boolean },
        ),
      );
    });
    expect(answers.map((a) => (a.authenticated ? a.name.split(' ')[1] : null))).toEqual([
      ...['Имя0', 'Имя1', 'Имя2', 'Имя3', 'Имя4'],
      ...['Имя0', 'Имя1', 'Имя2', 'Имя3', 'Имя4'],
      null,
      null,
    ]);
    const lookups = queries.filter((q) => /from "sessions"/.test(q));
    // A session is read by its own indexed statement; nothing batches lookups across requests.
    expect(lookups).toHaveLength(11);
  });

  it('logout ends the session on the server', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    await client.signIn(user.email);
    const token = client.cookies.get('lms_session') ?? '';
    const res = await client.post('/api/logout');
    expect(res.statusCode).toBe(200);
    expect(client.cookies.has('lms_session')).toBe(false);
    const replay = new Client(ctx.app);
    replay.cookies.set('lms_session', token);
    expect((await replay.get('/api/check-auth')).json().authenticated).toBe(false);
  });

  it('validation errors are 422 with a Russian message and the field', async () => {
    const res = await new Client(ctx.app).post('/login', { login: '', password: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().result.success).toBe(false);
    expect(res.json().errors.login).toEqual(['Заполните почту и пароль']);
  });

  it('malformed JSON and an oversized body are 4xx, never 500', async () => {
    const client = new Client(ctx.app);
    const bad = await client.request('POST', '/login', '{"login":', { 'content-type': 'application/json' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({ success: false, message: 'Некорректный формат запроса' });
    const big = await client.request('POST', '/login', JSON.stringify({ login: 'a'.repeat(2 * 1024 * 1024) }), {
      'content-type': 'application/json',
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().result.success).toBe(false);
  });
});

describe(`CSRF and cross-site requests (${dialectName})`, () => {
  let ctx: TestContext;
  let email: string;
  beforeEach(async () => {
    ctx = await createTestApp();
    email = (await createUser(ctx.db, { role: 'learner' })).email;
  });
  afterEach(async () => {
    await ctx.close();
  });
  const body = () => ({ login: email, password: DEFAULT_PASSWORD, remember: false });

  it('refuses a state change without the X-Requested-With marker', async () => {
    const client = new Client(ctx.app);
    const res = await client.post('/login', body(), { 'x-requested-with': '' });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a state change without a CSRF token, or with one bound to another session', async () => {
    const client = new Client(ctx.app);
    expect((await client.post('/login', body(), { 'x-xsrf-token': '' })).statusCode).toBe(403);
    await client.signIn(email);
    const other = new Client(ctx.app);
    await other.get('/api/check-auth');
    const res = await client.post('/api/logout', {}, { 'x-xsrf-token': other.cookies.get('XSRF-TOKEN') ?? '' });
    expect(res.statusCode).toBe(403);
    expect(res.json().result.message).toBe('Сессия устарела. Обновите страницу и повторите действие.');
    expect((await client.get('/api/check-auth')).json().authenticated).toBe(true);
  });

  it('gives a new CSRF token bound to the new session at sign-in', async () => {
    const client = new Client(ctx.app);
    await client.get('/api/check-auth');
    const before = client.cookies.get('XSRF-TOKEN');
    await client.signIn(email);
    expect(client.cookies.get('XSRF-TOKEN')).not.toBe(before);
    expect((await client.post('/api/logout')).statusCode).toBe(200);
  });

  it('refuses cross-site requests by Origin or Sec-Fetch-Site', async () => {
    const client = new Client(ctx.app);
    expect((await client.post('/login', body(), { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await client.post('/login', body(), { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect(
      (await client.post('/login', body(), { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or cookies', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const ctx = await createTestApp({}, { logger: { level: 'trace', stream } });
    try {
      const user = await createUser(ctx.db, { role: 'learner' });
      const client = new Client(ctx.app);
      await client.signIn(user.email);
      await client.post('/login', { login: user.email, password: 'Very-secret-typo', remember: true });
      await client.get('/api/menu');
      const all = lines.join('');
      expect(all).toContain('/api/menu');
      for (const secret of [
        DEFAULT_PASSWORD,
        'Very-secret-typo',
        client.cookies.get('lms_session') ?? '??',
        client.cookies.get('XSRF-TOKEN') ?? '??',
      ]) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await ctx.close();
    }
  });
});
