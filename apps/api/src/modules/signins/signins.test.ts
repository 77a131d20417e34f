import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.js';
import {
  Client,
  clientAs,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  dialectName,
  type TestContext,
} from '../../test/harness.js';

/** The journal of sign-ins and the sign-in settings (issue 33), with the platform's password only. */
describe(`the sign-in journal (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminId: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    ({
      client: admin,
      user: { id: adminId },
    } = await clientAs(ctx, 'admin', { first_name: 'Ольга', last_name: 'Админова', email: 'admin@example.com' }));
  });
  afterEach(async () => {
    await ctx.close();
  });

  const attempt = (login: string, password: string, agent = 'Firefox/140') =>
    new Client(ctx.app).post('/login', { login, password, remember: false }, { 'user-agent': agent });

  it('records every sign-in it judged, successful or not, newest first, with who and from where', async () => {
    const vera = await createUser(ctx.db, {
      role: 'learner',
      email: 'vera@example.com',
      first_name: 'Вера',
      last_name: 'Орлова',
    });
    ctx.clock.advance(MINUTE);
    expect((await attempt('vera@example.com', 'wrong')).statusCode).toBe(422);
    ctx.clock.advance(MINUTE);
    expect((await attempt('nobody@example.com', 'wrong')).statusCode).toBe(422);
    ctx.clock.advance(MINUTE);
    expect((await attempt('VERA@example.com', DEFAULT_PASSWORD, 'Chrome/150')).statusCode).toBe(200);

    const page = (await admin.get('/api/admin/sign-ins')).json();
    expect(page).toMatchObject({ result: { success: true }, total: 4, page: 1, per_page: 50 });
    const base = { id: expect.any(Number), method: 'password', ip: '127.0.0.1' };
    expect(page.items).toEqual([
      {
        ...base,
        at: ctx.clock.now().toISOString(),
        user_id: vera.id,
        name: 'Орлова Вера',
        login: 'vera@example.com',
        success: true,
        failure: null,
        user_agent: 'Chrome/150',
      },
      {
        ...base,
        at: new Date(ctx.clock.now().getTime() - MINUTE).toISOString(),
        user_id: null,
        name: null,
        login: 'nobody@example.com',
        success: false,
        failure: 'unknown_login',
        user_agent: 'Firefox/140',
      },
      expect.objectContaining({ user_id: vera.id, success: false, failure: 'wrong_password' }),
      expect.objectContaining({ user_id: adminId, login: 'admin@example.com', success: true }),
    ]);

    const failures = (await admin.get('/api/admin/sign-ins?result=failure&search=орлова')).json();
    expect(failures.items.map((e: { failure: string }) => e.failure)).toEqual(['wrong_password']);
    const byLogin = (await admin.get('/api/admin/sign-ins?search=NOBODY&method=password')).json();
    expect(byLogin.total).toBe(1);
    expect((await admin.get('/api/admin/sign-ins?method=ldap')).json().total).toBe(0);
    expect((await admin.get('/api/admin/sign-ins?per_page=2&page=2')).json().items).toHaveLength(2);
    expect((await admin.get('/api/admin/sign-ins?result=maybe')).statusCode).toBe(422);
  });

  it('is the admins’ only; turning on "SSO only" needs a way in besides the platform’s password', async () => {
    const { client: manager } = await clientAs(ctx, 'manager');
    expect((await manager.get('/api/admin/sign-ins')).statusCode).toBe(403);
    expect((await manager.put('/api/admin/sign-in-settings', { sso_only: true })).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/sign-in-settings')).statusCode).toBe(401);

    expect((await admin.get('/api/admin/sign-in-settings')).json()).toEqual({
      result: { success: true },
      data: { sso_only: false, ldap_auth: false, oidc: false },
    });
    const refused = await admin.put('/api/admin/sign-in-settings', { sso_only: true });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().result.message).toBe(
      'Сначала настройте вход через Active Directory (LDAP_AUTH) или корпоративный аккаунт (OIDC_*)',
    );
    expect((await admin.put('/api/admin/sign-in-settings', { sso_only: 'yes' })).statusCode).toBe(422);
    const off = await admin.put('/api/admin/sign-in-settings', { sso_only: false });
    expect(off.json()).toMatchObject({ result: { message: 'Настройки входа сохранены' }, data: { sso_only: false } });
  });

  it('forgets sign-ins older than a year', async () => {
    await attempt('nobody@example.com', 'wrong');
    ctx.clock.advance(366 * 24 * 60 * MINUTE);
    await attempt('nobody@example.com', 'wrong');
    // The admin's session of a year ago has ended: signing in again is today's second entry.
    await admin.signIn('admin@example.com');
    const logins = (await admin.get('/api/admin/sign-ins')).json().items.map((e: { at: string }) => e.at);
    expect(logins).toEqual([ctx.clock.now().toISOString(), ctx.clock.now().toISOString()]);
  });
});
