import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, clientAs, createTestApp, type TestContext } from '../test/harness.js';

/** Pino's lines as the app writes them, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: { level: 'info', stream } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids and the access line', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('answers with a new id, keeps a safe one from the balancer and replaces an unsafe one', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    const again = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(plain.headers['x-request-id']).toMatch(UUID);
    expect(again.headers['x-request-id']).not.toBe(plain.headers['x-request-id']);

    const haproxy = '7F000001:C8D2_7F000001:0BB8_6790A1B2_0001:3A4F';
    for (const kept of [haproxy, 'f3b1c2d4e5f60718293a4b5c6d7e8f90', 'abc-123.x_y']) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-request-id': kept } });
      expect(res.headers['x-request-id']).toBe(kept);
    }
    for (const unsafe of ['a b', 'x'.repeat(65), '"}{"admin":true', 'id\u0001', '']) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-request-id': unsafe } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('ignores the header without a balancer in front (TRUST_PROXY unset): the client does not choose', async () => {
    ctx = await createTestApp();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: { 'x-request-id': 'mine-1' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('puts the id on refusals too (401, 404)', async () => {
    ctx = await createTestApp({ TRUST_PROXY: '1' });
    const headers = { 'x-request-id': 'balancer-1' };
    const unauthorised = await ctx.app.inject({ method: 'GET', url: '/api/profile', headers });
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing', headers });
    expect([unauthorised.statusCode, unauthorised.headers['x-request-id']]).toEqual([401, 'balancer-1']);
    expect([missing.statusCode, missing.headers['x-request-id']]).toEqual([404, 'balancer-1']);
  });

  it("writes the request id, and the user id once the session is resolved, on the request's line", async () => {
    const log = capture();
    ctx = await createTestApp({ TRUST_PROXY: '1' }, { logger: log.logger });
    const { client, user } = await clientAs(ctx, 'learner');
    await client.get('/api/profile', { 'x-request-id': 'learner-complaint-1' });
    await new Client(ctx.app).get('/api/config', { 'x-request-id': 'guest-1' });

    const line = (reqId: string) => log.lines.find((l) => l.reqId === reqId && l.msg === 'request');
    expect(line('learner-complaint-1')).toMatchObject({ userId: user.id, url: '/api/profile', status: 200 });
    // A public call that never reads the session names no one.
    expect(line('guest-1')).toMatchObject({ url: '/api/config', status: 200 });
    expect(line('guest-1')).not.toHaveProperty('userId');
  });

  it('keeps no SCORM launch token in the access line', async () => {
    const log = capture();
    ctx = await createTestApp({}, { logger: log.logger });
    const token = 'Zm9yLWxvZ3Mtb25seS0xMjM0NTY3ODkw';
    const paths = [
      `/scorm-content/${token}/pkg/index.html?x=1`,
      `/scorm-content/${token}/lms/runtime.js`,
      // A package's link out of its folder matches no route.
      `/scorm-content/${token}/favicon.ico`,
    ];
    for (const url of paths) await ctx.app.inject({ method: 'GET', url });
    const lines = log.lines.filter((l) => l.msg === 'request');
    expect(lines.map((l) => l.url)).toEqual([
      '/scorm-content/…/pkg/index.html?x=1',
      '/scorm-content/…/lms/runtime.js',
      '/scorm-content/…/favicon.ico',
    ]);
    expect(JSON.stringify(log.lines)).not.toContain(token);
  });
});
