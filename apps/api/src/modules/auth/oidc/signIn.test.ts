import { OIDC_ERROR_MESSAGES, oidcErrorMessage } from '@lms/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, DAY } from '../../../platform/clock.js';
import { sha256 } from '../../../platform/tokens.js';
import { clientAs, createTestApp, createUser, dialectName, type TestContext } from '../../../test/harness.js';
import {
  CALLBACK,
  Client,
  locationOf,
  oidcTestApp,
  refusalOf,
  sessionCount,
  signInThrough,
  SITE,
  startSignIn,
  type OidcTest,
} from '../../../test/oidcApp.js';

/**
 * Sign-in through the company's OpenID Connect provider (issue 33) against a real provider run in
 * this process: the session it opens, where it goes back to, logout at the provider.
 */

const ANNA = {
  sub: 'anna',
  // The provider's spelling of the address differs in case from the account's: found all the same.
  email: 'Anna.Smirnova@Example.com',
  email_verified: true,
  given_name: 'Анна',
  family_name: 'Смирнова',
};

describe(`OpenID Connect sign-in (${dialectName})`, () => {
  let t: OidcTest;
  afterEach(async () => t?.close());

  async function withAnna(env: Record<string, string> = {}) {
    t = await oidcTestApp({ provider: { accounts: [ANNA] }, env });
    return createUser(t.ctx.db, { role: 'manager', email: 'anna.smirnova@example.com', first_name: 'Анна' });
  }

  async function sessionRow(ctx: TestContext, token: string | undefined) {
    return ctx.db.kysely
      .selectFrom('sessions')
      .select(['user_id', 'remember', 'expires_at', 'ip', 'user_agent'])
      .where('token_hash', '=', sha256(token ?? ''))
      .executeTakeFirst();
  }

  it('the sign-in page learns the button label; the start sends the browser to the provider with PKCE, state and nonce', async () => {
    await withAnna({ OIDC_BUTTON_LABEL: 'Войти через Keycloak' });
    const client = new Client(t.ctx.app);
    expect((await client.get('/api/config')).json()).toMatchObject({ oidc_label: 'Войти через Keycloak' });

    const res = await client.get('/api/auth/oidc/start');
    const to = new URL(locationOf(res));
    expect(to.origin).toBe(t.provider.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: 'lms',
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const param of ['code_challenge', 'state', 'nonce']) expect(to.searchParams.get(param)).toMatch(/^.{22,}$/);
    // What the callback checks against travels only in a signed, httpOnly, short-lived cookie of the callback's path.
    const flow = res.cookies.find((c) => c.name === 'lms_oidc');
    expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc/callback', maxAge: 600 });
    expect(flow?.value).not.toContain(to.searchParams.get('code_challenge'));
  });

  it('an employee signs in at the provider: a session like the password one, and back where they were going', async () => {
    const anna = await withAnna();
    const client = new Client(t.ctx.app);
    // An earlier session in the same browser (a password sign-in) is replaced, as POST /login does.
    await client.signIn(anna.email);
    const before = client.cookies.get('lms_session');

    const res = await signInThrough(t, client, 'anna', {
      query: `?return=${encodeURIComponent('/catalogue/5?tab=Модули#top')}`,
    });
    expect(locationOf(res)).toBe('/catalogue/5?tab=%D0%9C%D0%BE%D0%B4%D1%83%D0%BB%D0%B8#top');
    const token = client.cookies.get('lms_session');
    expect(token).toBeDefined();
    expect(token).not.toBe(before);
    expect(res.cookies.find((c) => c.name === 'lms_session')).toMatchObject({ httpOnly: true, path: '/' });
    expect(res.cookies.find((c) => c.name === 'lms_session')?.maxAge).toBeUndefined();
    expect(await sessionRow(t.ctx, before)).toBeUndefined();
    expect(await sessionRow(t.ctx, token)).toEqual({
      user_id: anna.id,
      remember: false,
      expires_at: new Date(t.ctx.clock.now().getTime() + 12 * HOUR).toISOString(),
      ip: '127.0.0.1',
      user_agent: 'lightMyRequest',
    });
    expect(await sessionCount(t.ctx)).toBe(1);
    // The flow cookie is spent; the session works for the API like a password one (CSRF included).
    expect(client.cookies.has('lms_oidc')).toBe(false);
    expect((await client.get('/api/check-auth')).json()).toMatchObject({ authenticated: true, id: anna.id });
    expect((await client.put('/api/profile/preferences', { reminder_mails: false })).statusCode).toBe(200);
    const made = await t.ctx.db.kysely
      .selectFrom('sessions')
      .select('method')
      .where('token_hash', '=', sha256(token ?? ''))
      .executeTakeFirst();
    expect(made?.method).toBe('oidc');
    const { client: admin } = await clientAs(t.ctx, 'admin');
    expect((await admin.get('/api/admin/sign-ins?method=oidc')).json().items).toEqual([
      expect.objectContaining({ user_id: anna.id, login: 'anna.smirnova@example.com', success: true, failure: null }),
    ]);
  });

  it("'Запомнить меня' keeps the session 30 days; with no return path the home page", async () => {
    await withAnna();
    const client = new Client(t.ctx.app);
    const res = await signInThrough(t, client, 'anna', { query: '?remember=1' });
    expect(locationOf(res)).toBe('/');
    expect(res.cookies.find((c) => c.name === 'lms_session')?.maxAge).toBe((30 * DAY) / 1000);
    expect(await sessionRow(t.ctx, client.cookies.get('lms_session'))).toMatchObject({
      remember: true,
      expires_at: new Date(t.ctx.clock.now().getTime() + 30 * DAY).toISOString(),
    });
  });

  it('logout ends the local session and, for a session made at the provider, sends the browser to its logout', async () => {
    await withAnna();
    const client = new Client(t.ctx.app);
    const browser = t.provider.browser();
    await signInThrough(t, client, 'anna', { browser });
    expect(browser.prompts).toEqual(['login', 'consent']);
    // While the provider's session lasts, signing in again asks nothing there.
    await client.post('/api/logout');
    await signInThrough(t, client, 'anna', { browser });
    expect(browser.prompts).toEqual([]);
    const res = await client.post('/api/logout');
    expect(res.statusCode).toBe(200);
    const { redirect } = res.json<{ redirect: string }>();
    const end = new URL(redirect);
    expect(end.origin).toBe(t.provider.issuer);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${SITE}/login`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await sessionCount(t.ctx)).toBe(0);
    expect((await client.get('/api/check-auth')).json()).toMatchObject({ authenticated: false });
    // The provider accepts the hint, ends its own session and sends the browser back to our sign-in page.
    expect((await browser.logout(redirect)).href).toBe(`${SITE}/login`);
    expect(browser.prompts).toEqual(['logout']);
    // Its session is gone: the next sign-in asks for the login again.
    expect(refusalOf(await signInThrough(t, client, 'anna', { browser }))).toBeNull();
    expect(browser.prompts).toContain('login');
  });

  it('a password session in the same browser later does not send anyone to the provider', async () => {
    const anna = await withAnna();
    const client = new Client(t.ctx.app);
    await signInThrough(t, client, 'anna');
    await client.signIn(anna.email);
    // The hint of the earlier session is still in the browser, bound to that session's token.
    expect(client.cookies.has('lms_oidc_logout')).toBe(true);
    const res = await client.post('/api/logout');
    expect(res.json()).toEqual({ result: { success: true } });
    expect(client.cookies.has('lms_oidc_logout')).toBe(false);
  });

  it('a provider without an end-session address: logout is local only', async () => {
    t = await oidcTestApp({ provider: { accounts: [ANNA], endSession: false } });
    await createUser(t.ctx.db, { role: 'learner', email: 'anna.smirnova@example.com' });
    const client = new Client(t.ctx.app);
    await signInThrough(t, client, 'anna');
    expect((await client.post('/api/logout')).json()).toEqual({ result: { success: true } });
    expect(await sessionCount(t.ctx)).toBe(0);
  });

  it('the start route keeps the provider unasked while nothing is configured', async () => {
    const ctx = await createTestApp();
    try {
      const client = new Client(ctx.app);
      expect((await client.get('/api/config')).json()).toMatchObject({ oidc_label: null });
      const start = await client.get('/api/auth/oidc/start');
      expect(locationOf(start)).toBe('/login?sso_error=off');
      expect(locationOf(await client.get('/api/auth/oidc/callback?code=x&state=y'))).toBe('/login?sso_error=off');
      expect((await client.post('/api/logout')).json()).toEqual({ result: { success: true } });
    } finally {
      await ctx.close();
    }
  });

  it('a provider that does not answer: a Russian message on the sign-in page, no 500', async () => {
    await withAnna();
    await t.provider.stop();
    const res = await new Client(t.ctx.app).get('/api/auth/oidc/start');
    expect(refusalOf(res)).toBe('unavailable');
    expect(oidcErrorMessage('unavailable')).toBe(OIDC_ERROR_MESSAGES.unavailable);
    expect(oidcErrorMessage('anything-else')).toBe(OIDC_ERROR_MESSAGES.failed);
  });

  it('the state of the start survives a second start in another tab only for that tab', async () => {
    await withAnna();
    const client = new Client(t.ctx.app);
    const first = await startSignIn(client);
    await startSignIn(client);
    // The first tab's answer meets the second tab's cookie: refused, no session.
    const back = await t.provider.signIn(first.href, 'anna');
    const res = await client.get(`${back.pathname}${back.search}`);
    expect(refusalOf(res)).toBe('invalid');
    expect(await sessionCount(t.ctx)).toBe(0);
  });
});
