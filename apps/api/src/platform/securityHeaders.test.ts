import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.js';
import { securityHeaders } from './securityHeaders.js';

describe('security headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('are helmet’s, computed once, on answers and errors alike', async () => {
    const expected = securityHeaders();
    expect(expected['content-security-policy']).toContain("frame-src 'self' https://www.youtube.com");
    expect(expected['content-security-policy']).toContain("object-src 'none'");
    expect(expected).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' });
    expect(expected['cross-origin-embedder-policy']).toBeUndefined();
    for (const url of ['/api/check-auth', '/api/user/courses', '/no-such-api']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      for (const [name, value] of Object.entries(expected))
        expect([url, name, res.headers[name]]).toEqual([url, name, value]);
    }
  });
});
