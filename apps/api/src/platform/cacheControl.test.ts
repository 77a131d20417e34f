import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientAs, createTestApp, dialectName, type TestContext } from '../test/harness.js';

/**
 * Answers that depend on the session are never kept by a browser or a proxy (issue 30 item 22): every
 * answer of the API carries `Cache-Control: no-store` unless its route says otherwise.
 */
describe(`Cache-Control of the API's answers (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('is no-store on answers, errors and sign-in alike', async () => {
    const { client, user } = await clientAs(ctx, 'admin');
    const answers = [
      ['check-auth', await client.get('/api/check-auth')],
      ['a list', await client.get('/api/courses')],
      ['the settings', await client.get('/api/config')],
      ['the routes', await client.get('/ziggy')],
      ['a 404', await client.get('/api/no-such-thing')],
      ['a 422', await client.post('/api/courses/modules', {})],
      ['an anonymous 401', await ctx.app.inject({ method: 'GET', url: '/api/user/courses' })],
      ['a sign-in', await client.post('/login', { login: user.email, password: user.password, remember: false })],
    ] as const;
    for (const [what, res] of answers) expect([what, res.headers['cache-control']]).toEqual([what, 'no-store']);
  });
});
