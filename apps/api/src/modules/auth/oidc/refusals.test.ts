import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../platform/clock.js';
import { createUser, dialectName } from '../../../test/harness.js';
import {
  Client,
  locationOf,
  oidcTestApp,
  refusalOf,
  sessionCount,
  signInThrough,
  startSignIn,
  visitCallback,
  type OidcTest,
} from '../../../test/oidcApp.js';
import type { ProviderOptions } from '../../../test/oidcProvider.js';

/**
 * Every way the OpenID Connect sign-in refuses (issue 33), against a real provider run in this
 * process: each ends on the sign-in page with its code (its Russian text in the contract), without a
 * session, and never as a 500.
 */

const ANNA = {
  sub: 'anna',
  email: 'anna@example.com',
  email_verified: true,
  given_name: 'Анна',
  family_name: 'Смирнова',
};

describe(`OpenID Connect refusals (${dialectName})`, () => {
  let t: OidcTest;
  afterEach(async () => t?.close());

  async function setUp(provider: Partial<ProviderOptions> = {}, env: Record<string, string> = {}) {
    t = await oidcTestApp({ provider: { accounts: [ANNA], ...provider }, env });
    await createUser(t.ctx.db, { role: 'learner', email: 'anna@example.com' });
    return new Client(t.ctx.app);
  }

  /** A refused answer: the sign-in page with that code, no session cookie, no session row. */
  async function expectRefused(res: Awaited<ReturnType<typeof signInThrough>>, code: string) {
    expect(refusalOf(res)).toBe(code);
    expect(res.cookies.find((c) => c.name === 'lms_session')).toBeUndefined();
    expect(await sessionCount(t.ctx)).toBe(0);
  }

  it('a return address off this site is refused before the provider is asked', async () => {
    const client = await setUp();
    const evil = [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'home',
      '/\t/evil.example',
    ];
    for (const value of evil) {
      const res = await client.get(`/api/auth/oidc/start?return=${encodeURIComponent(value)}`);
      expect(locationOf(res), value).toBe('/login?sso_error=bad_return');
      expect(res.cookies.find((c) => c.name === 'lms_oidc')).toBeUndefined();
    }
    const ok = await client.get(`/api/auth/oidc/start?return=${encodeURIComponent('/settings?search=Иван Петров')}`);
    expect(new URL(locationOf(ok)).origin).toBe(t.provider.issuer);
  });

  it('an answer whose state is not the one this browser started with', async () => {
    const client = await setUp();
    const res = await signInThrough(t, client, 'anna', {
      tamperBack: (url) => url.searchParams.set('state', 'somebody-elses-state'),
    });
    await expectRefused(res, 'invalid');
  });

  it('a callback without the flow cookie (another browser, a bookmark), or with an altered one', async () => {
    const client = await setUp();
    const authorization = await startSignIn(client);
    const back = await t.provider.signIn(authorization.href, 'anna');
    const flow = client.cookies.get('lms_oidc') ?? '';
    client.cookies.set('lms_oidc', `${flow.slice(0, -3)}AAA`);
    await expectRefused(await visitCallback(client, back), 'expired');
    client.cookies.delete('lms_oidc');
    await expectRefused(await visitCallback(client, back), 'expired');
  });

  it('an answer that comes back after the ten minutes the sign-in may take', async () => {
    const client = await setUp();
    const authorization = await startSignIn(client);
    const back = await t.provider.signIn(authorization.href, 'anna');
    t.ctx.clock.advance(10 * MINUTE + 1);
    await expectRefused(await visitCallback(client, back), 'expired');
  });

  it('a replayed code: the provider refuses it the second time', async () => {
    const client = await setUp();
    const authorization = await startSignIn(client);
    const flow = client.cookies.get('lms_oidc') ?? '';
    const back = await t.provider.signIn(authorization.href, 'anna');
    expect(refusalOf(await visitCallback(client, back))).toBeNull();
    await client.post('/api/logout');
    // Even with the flow cookie put back (the app removed it), the code works once only.
    client.cookies.set('lms_oidc', flow);
    await expectRefused(await visitCallback(client, back), 'invalid');
  });

  it('a nonce in the ID token that is not this sign-in’s', async () => {
    const client = await setUp();
    const res = await signInThrough(t, client, 'anna', {
      tamper: (url) => url.searchParams.set('nonce', 'a-nonce-of-another-sign-in'),
    });
    await expectRefused(res, 'invalid');
  });

  it('PKCE: a code issued for another verifier is not exchanged; no challenge at all is refused by the provider', async () => {
    const client = await setUp();
    const other = await signInThrough(t, client, 'anna', {
      tamper: (url) => url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    });
    await expectRefused(other, 'invalid');
    const none = await signInThrough(t, client, 'anna', { tamper: (url) => url.searchParams.delete('code_challenge') });
    await expectRefused(none, 'denied');
  });

  it('an ID token from another issuer', async () => {
    const client = await setUp({ forge: { claims: (c) => ({ ...c, iss: 'https://evil.example' }) } });
    await expectRefused(await signInThrough(t, client, 'anna'), 'invalid');
  });

  it('an ID token for another client (audience)', async () => {
    const client = await setUp({ forge: { claims: (c) => ({ ...c, aud: 'another-client' }) } });
    await expectRefused(await signInThrough(t, client, 'anna'), 'invalid');
  });

  it('an ID token signed with a key the provider never published', async () => {
    const client = await setUp({ forge: { foreignKey: true } });
    await expectRefused(await signInThrough(t, client, 'anna'), 'invalid');
  });

  it("an expired ID token (the provider's one-second tokens, the app's clock two minutes on)", async () => {
    const client = await setUp({ idTokenTtl: 1 });
    const authorization = await startSignIn(client);
    const back = await t.provider.signIn(authorization.href, 'anna');
    t.ctx.clock.advance(2 * MINUTE);
    await expectRefused(await visitCallback(client, back), 'invalid');
  });

  it('the same untouched flow passes, so each refusal above is its own check', async () => {
    const client = await setUp({ idTokenTtl: 1 });
    const res = await signInThrough(t, client, 'anna');
    expect(locationOf(res)).toBe('/');
    expect(await sessionCount(t.ctx)).toBe(1);
  });

  it('the user cancels at the provider', async () => {
    const client = await setUp();
    const back = await t.provider.cancel((await startSignIn(client)).href);
    expect(back.searchParams.get('error')).toBe('access_denied');
    await expectRefused(await visitCallback(client, back), 'denied');
  });

  it('the per-address budget of sign-in attempts holds on the callback too, and is counted', async () => {
    const client = await setUp({}, { METRICS_TOKEN: 'metrics-token-0123456789-0123456789' });
    const refusals = async () => {
      const res = await t.ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-0123456789-0123456789' },
      });
      return [...res.body.matchAll(/^lms_rate_limited_total\{route="([^"]+)"\} (\d+)$/gm)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
    };
    for (let i = 0; i < 30; i++) {
      expect(refusalOf(await client.get('/api/auth/oidc/callback?code=x&state=y'))).toBe('expired');
    }
    expect(refusalOf(await client.get('/api/auth/oidc/callback?code=x&state=y'))).toBe('too_many');
    // The same budget as the password sign-in's: it is spent for the form too.
    const login = await client.post('/login', { login: 'anna@example.com', password: 'x', remember: false });
    expect(login.statusCode).toBe(429);
    // The provider's refusal is a redirect, not a 429: it is counted all the same.
    expect((await refusals()).sort()).toEqual(['/api/auth/oidc/callback 1', '/login 1']);
    t.ctx.clock.advance(MINUTE);
    expect(refusalOf(await signInThrough(t, client, 'anna'))).toBeNull();
  });
});
