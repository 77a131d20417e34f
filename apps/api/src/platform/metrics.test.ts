import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { Client, createTestApp, createUser, dialectName, type TestContext } from '../test/harness.js';
import { MINUTE } from './clock.js';
import type { AuditedMail } from './mail/mailer.js';

const TOKEN = 'metrics-token-0123456789-0123456789-abcdef';
const WITH_TOKEN = { METRICS_TOKEN: TOKEN };

/** One sample of the text format, by name and some of its labels; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(app: TestContext['app']): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

function httpGet(port: number, path: string) {
  return new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    // A connection per request: a kept one would outlive the listener's closing.
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`metrics (${dialectName})`, () => {
  let ctx: TestContext | undefined;
  let other: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    await other?.close();
    ctx = other = undefined;
  });

  it('is off without METRICS_TOKEN or METRICS_PORT: 404 in the API format', async () => {
    ctx = await createTestApp();
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect([res.statusCode, res.json()]).toEqual([404, { result: { success: false, message: 'Не найдено' } }]);
    expect(ctx.app.metricsAddress()).toBeNull();
  });

  it('answers 401 without the token or with a wrong one, and the text format with the right one', async () => {
    ctx = await createTestApp(WITH_TOKEN);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect([authorization, res.statusCode, res.headers['www-authenticate']]).toEqual([
        authorization,
        401,
        'Bearer realm="metrics"',
      ]);
      expect(res.json()).toEqual({ result: { success: false, message: 'Требуется авторизация' } });
    }
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // The process's own: memory and event-loop lag.
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(res.body).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
  });

  it('counts requests by route pattern and status, never by the address asked for', async () => {
    ctx = await createTestApp(WITH_TOKEN);
    const anonymous = new Client(ctx.app);
    const route = { method: 'GET', route: '/api/admin/users/:id', status: '401' };
    expect(sample(await scrape(ctx.app), 'lms_http_requests_total', route)).toBeUndefined();
    await anonymous.get('/api/admin/users/48151623');
    await anonymous.get('/api/admin/users/42');
    await anonymous.get('/no/such/page/9731');
    const text = await scrape(ctx.app);
    expect(sample(text, 'lms_http_requests_total', route)).toBe(2);
    expect(sample(text, 'lms_http_request_duration_seconds_count', route)).toBe(2);
    expect(sample(text, 'lms_http_requests_total', { route: '(unmatched)', status: '404' })).toBe(1);
    // Only the labels: a sample's value (a duration, a heap size) may contain these digits by chance.
    const labels = text.match(/\{[^}]*\}/g) ?? [];
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((set) => /48151623|9731/.test(set))).toEqual([]);
  });

  it('counts refused sign-ins by way in and reason, and 429 refusals by route', async () => {
    ctx = await createTestApp(WITH_TOKEN);
    const user = await createUser(ctx.db, { role: 'learner' });
    const client = new Client(ctx.app);
    const signIn = (login: string) => client.post('/login', { login, password: 'Wrong-password-1', remember: false });
    expect((await signIn('nobody@example.com')).statusCode).toBe(422);
    // Five failures of one login a minute, then the limit answers 429 before any check.
    for (let i = 0; i < 5; i++) expect((await signIn(user.email)).statusCode).toBe(422);
    expect((await signIn(user.email)).statusCode).toBe(429);
    const text = await scrape(ctx.app);
    expect(sample(text, 'lms_sign_in_failures_total', { method: 'password', reason: 'unknown_login' })).toBe(1);
    expect(sample(text, 'lms_sign_in_failures_total', { method: 'password', reason: 'wrong_password' })).toBe(5);
    expect(sample(text, 'lms_rate_limited_total', { route: '/login' })).toBe(1);
    ctx.clock.advance(MINUTE);
    expect((await client.signIn(user.email, user.password)).statusCode).toBe(200);
    expect(sample(await scrape(ctx.app), 'lms_sign_in_failures_total', { reason: 'wrong_password' })).toBe(5);
  });

  it('counts reminder passes and mail deliveries: sent, tried again later, given up', async () => {
    const mail = (to: string): AuditedMail => ({
      to,
      subject: 'Тема',
      html: '<p>Текст</p>',
      text: 'Текст',
      audit: { kind: 'manager_digest', user_id: null, course_id: null },
    });
    other = await createTestApp(WITH_TOKEN, {
      mailTransport: {
        async deliver(message) {
          if (message.to.startsWith('later')) throw Object.assign(new Error('busy'), { responseCode: 451 });
          if (message.to.startsWith('never')) throw Object.assign(new Error('no'), { responseCode: 550 });
        },
      },
    });
    const { app } = other;
    const before = await scrape(app);
    for (const outcome of ['sent', 'retry', 'failed'])
      expect(sample(before, 'lms_mail_deliveries_total', { outcome })).toBe(0);
    expect(sample(before, 'lms_mail_queued')).toBe(0);
    for (const to of ['ok@example.com', 'later@example.com', 'never@example.com']) await app.mailer.send(mail(to));
    await app.jobs.mailSettled();
    await app.jobs.remind();
    const text = await scrape(app);
    for (const outcome of ['sent', 'retry', 'failed'])
      expect(sample(text, 'lms_mail_deliveries_total', { outcome })).toBe(1);
    expect(sample(text, 'lms_reminder_passes_total', { outcome: 'ok' })).toBe(1);
    expect(sample(text, 'lms_reminder_passes_total', { outcome: 'failed' })).toBe(0);
    // The one tried again later waits in the outbox.
    expect(sample(text, 'lms_mail_queued')).toBe(1);

    await other.db.close();
    await expect(app.jobs.remind()).rejects.toThrow();
    const unreadable = await scrape(app);
    expect(sample(unreadable, 'lms_reminder_passes_total', { outcome: 'failed' })).toBe(1);
    expect(sample(unreadable, 'lms_mail_queued')).toBeNaN();
  });

  it("times the database's statements; on PostgreSQL it reports the pool", async () => {
    ctx = await createTestApp(WITH_TOKEN);
    const before = sample(await scrape(ctx.app), 'lms_db_query_duration_seconds_count', { outcome: 'ok' }) ?? 0;
    await createUser(ctx.db, { role: 'learner' });
    const text = await scrape(ctx.app);
    expect(sample(text, 'lms_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(before);
    if (dialectName === 'postgres') {
      expect(sample(text, 'lms_db_pool_max_connections')).toBe(10);
      expect(sample(text, 'lms_db_pool_connections')).toBeGreaterThan(0);
      expect(sample(text, 'lms_db_pool_waiting_queries')).toBe(0);
    } else {
      expect(text).not.toContain('lms_db_pool_');
    }
  });

  it('serves /metrics alone on the internal listener (METRICS_PORT), without a token', async () => {
    ctx = await createTestApp({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
    const address = ctx.app.metricsAddress();
    if (!address) throw new Error('the internal listener is not listening');
    const metrics = await httpGet(address.port, '/metrics');
    expect([metrics.status, metrics.type]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8']);
    expect(sample(metrics.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    for (const path of ['/', '/api/config', '/readyz', '/metrics/x'])
      expect([path, (await httpGet(address.port, path)).status]).toEqual([path, 404]);
    // The main port has it only with METRICS_TOKEN.
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await ctx.close();
    ctx = undefined;
    await expect(httpGet(address.port, '/metrics')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('reads METRICS_TOKEN, METRICS_PORT, METRICS_HOST and READYZ_TIMEOUT_MS', () => {
    const none = loadConfig({});
    expect([none.metrics, none.readyTimeoutMs]).toEqual([{ token: undefined, listener: null }, 2000]);
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' }).metrics).toEqual({ token: undefined, listener: null });
    expect(loadConfig({ ...WITH_TOKEN, METRICS_PORT: '9464', READYZ_TIMEOUT_MS: '500' })).toMatchObject({
      metrics: { token: TOKEN, listener: { host: '127.0.0.1', port: 9464 } },
      readyTimeoutMs: 500,
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 32 characters/);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ READYZ_TIMEOUT_MS: '0' })).toThrow(/READYZ_TIMEOUT_MS/);
  });
});
