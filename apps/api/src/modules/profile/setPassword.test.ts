import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  clientAs,
  createDepartment,
  createTestApp,
  createUser,
  dialectName,
  roleId,
  type TestContext,
} from '../../test/harness.js';

const MUST_CHANGE = 'Чтобы продолжить, задайте собственный пароль вместо присланного по почте';
const passwordIn = (text: string | undefined) => /Пароль: (\S+)/.exec(text ?? '')?.[1] ?? '';
const newPasswordIn = (text: string | undefined) => /Новый пароль: (\S+)/.exec(text ?? '')?.[1] ?? '';
const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] ?? '';
const OWN = 'Свой-пароль-2026';

/** Issue 30 item 13: a password that came by mail from an admin is replaced by the user's own first. */
describe(`a mailed password must be replaced (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let dep: number;
  let learnerRole: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    dep = await createDepartment(ctx.db);
    learnerRole = await roleId(ctx.db, 'learner');
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** An employee created by the admin, signed in with the password of the welcome mail. */
  async function createdByAdmin(login = 'olga@example.com') {
    const res = await admin.post('/api/admin/users', {
      first_name: 'Ольга',
      last_name: 'Кузнецова',
      login,
      password: '',
      department_id: dep,
      role_id: learnerRole,
      course_ids: [],
    });
    expect(res.statusCode).toBe(201);
    const password = passwordIn(ctx.mailer.last(login)?.text);
    const client = new Client(ctx.app);
    const signIn = await client.signIn(login, password);
    return { client, password, signIn, id: res.json().data.id as number };
  }

  it('a new employee is told at sign-in and by check-auth, and every other call answers 403 until they set one', async () => {
    const { client, signIn } = await createdByAdmin();
    expect(signIn.json().user).toMatchObject({ authenticated: true, must_change_password: true });
    const auth = await client.get('/api/check-auth');
    expect(auth.statusCode).toBe(200);
    expect(auth.json()).toMatchObject({ authenticated: true, must_change_password: true, first_name: 'Ольга' });

    for (const [method, url] of [
      ['GET', '/api/user/courses'],
      ['GET', '/api/menu'],
      ['GET', '/api/profile'],
      ['POST', '/api/profile/change-password'],
      ['GET', '/storage/none.png'],
    ] as const) {
      const res = await client.request(method, url, method === 'POST' ? {} : undefined);
      expect([url, res.statusCode]).toEqual([url, 403]);
      expect(res.json()).toEqual({ result: { success: false, message: MUST_CHANGE } });
    }
    // Public calls stay as they are.
    expect((await client.get('/api/config')).statusCode).toBe(200);
    expect((await client.get('/ziggy')).statusCode).toBe(200);
  });

  it('the own password: checked by the profile rules, then everything opens and the mailed one stops working', async () => {
    const { client, password } = await createdByAdmin();
    const set = (new_password: string, new_password_confirmation = new_password) =>
      client.post('/api/profile/set-password', { new_password, new_password_confirmation });

    expect((await set(OWN, 'другой-пароль')).json().result.message).toBe('Подтверждение пароля не совпадает');
    const short = await set('1234567');
    expect(short.statusCode).toBe(422);
    expect(short.json().result.message).toBe('Новый пароль должен содержать не менее 8 символов');
    expect((await set('olga@example.com')).json().result.message).toBe('Пароль не должен совпадать с логином');
    const same = await set(password);
    expect(same.statusCode).toBe(422);
    expect(same.json().result.message).toBe('Новый пароль должен отличаться от старого');
    expect((await client.get('/api/user/courses')).statusCode).toBe(403);

    const ok = await set(OWN);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result).toEqual({ success: true, message: 'Пароль успешно изменён' });
    expect((await client.get('/api/check-auth')).json().must_change_password).toBe(false);
    expect((await client.get('/api/user/courses')).statusCode).toBe(200);
    expect((await client.get('/api/profile')).statusCode).toBe(200);

    // Set once: afterwards the password is changed in the profile, with the old one.
    const again = await set('Ещё-один-пароль');
    expect(again.statusCode).toBe(422);
    expect(again.json().result.message).toBe('Пароль уже задан. Сменить его можно в профиле');

    const anon = new Client(ctx.app);
    expect((await anon.post('/login', { login: 'olga@example.com', password, remember: false })).statusCode).toBe(422);
    const fresh = await anon.signIn('olga@example.com', OWN);
    expect(fresh.json().user.must_change_password).toBe(false);
  });

  it('sign-out works while the password is still to be set', async () => {
    const { client } = await createdByAdmin();
    expect((await client.post('/api/logout')).statusCode).toBe(200);
    expect((await client.get('/api/check-auth')).json().authenticated).toBe(false);
  });

  it('a reset by the admin asks for an own password again, and so does a reset by the recovery code (both are mailed)', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    expect((await admin.post(`/api/admin/users/${user.id}/reset-password`)).statusCode).toBe(200);
    const mailed = newPasswordIn(ctx.mailer.last(user.email)?.text);
    const client = new Client(ctx.app);
    expect((await client.signIn(user.email, mailed)).json().user.must_change_password).toBe(true);
    expect((await client.get('/api/user/courses')).statusCode).toBe(403);

    // The user forgets the mailed one and recovers by code: that password travels by mail too.
    const guest = new Client(ctx.app);
    await guest.post('/api/password/recovery-request', { email: user.email });
    const code = codeIn(ctx.mailer.last(user.email)?.text);
    expect((await guest.post('/api/password/reset-by-pin', { email: user.email, pin_code: code })).statusCode).toBe(
      200,
    );
    const recovered = newPasswordIn(ctx.mailer.last(user.email)?.text);
    const after = new Client(ctx.app);
    expect((await after.signIn(user.email, recovered)).json().user.must_change_password).toBe(true);
    expect((await after.get('/api/user/courses')).statusCode).toBe(403);
  });

  it('a password changed in the profile is the user’s own: no question afterwards; set-password is refused', async () => {
    const { client, user } = await clientAs(ctx, 'learner');
    expect((await client.get('/api/check-auth')).json().must_change_password).toBe(false);
    const changed = await client.post('/api/profile/change-password', {
      old_password: user.password,
      new_password: OWN,
      new_password_confirmation: OWN,
    });
    expect(changed.statusCode).toBe(200);
    expect((await new Client(ctx.app).signIn(user.email, OWN)).json().user.must_change_password).toBe(false);
    const set = await client.post('/api/profile/set-password', {
      new_password: 'Ещё-один-пароль',
      new_password_confirmation: 'Ещё-один-пароль',
    });
    expect(set.statusCode).toBe(422);
  });

  it('the mails carry the sign-in link and the login; without PUBLIC_URL the link is the address the admin uses', async () => {
    await createdByAdmin('anna@example.com');
    const welcome = ctx.mailer.last('anna@example.com');
    expect(welcome?.text).toContain('Логин: anna@example.com');
    expect(welcome?.text).toContain('http://localhost:80/login');
    expect(welcome?.html).toContain('href="http://localhost:80/login"');
    expect(welcome?.text).toContain('При первом входе платформа попросит придумать собственный пароль.');

    const user = await createUser(ctx.db, { role: 'learner' });
    await admin.post(`/api/admin/users/${user.id}/reset-password`, {}, { host: 'lms.company.ru' });
    const reset = ctx.mailer.last(user.email);
    expect(reset?.text).toContain(`Логин: ${user.email}`);
    expect(reset?.text).toContain('http://lms.company.ru/login');
  });
});

describe(`sign-in link with PUBLIC_URL (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp({ PUBLIC_URL: 'https://learn.example.com/' });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('uses PUBLIC_URL in the welcome, admin reset and code reset mails', async () => {
    const admin = (await clientAs(ctx, 'admin')).client;
    const user = await createUser(ctx.db, { role: 'learner' });
    // PUBLIC_URL fixes the origin a state-changing request must come from.
    const origin = { origin: 'https://learn.example.com' };
    await admin.post(`/api/admin/users/${user.id}/reset-password`, {}, origin);
    expect(ctx.mailer.last(user.email)?.text).toContain('https://learn.example.com/login');

    const guest = new Client(ctx.app);
    await guest.post('/api/password/recovery-request', { email: user.email }, origin);
    const code = codeIn(ctx.mailer.last(user.email)?.text);
    await guest.post('/api/password/reset-by-pin', { email: user.email, pin_code: code }, origin);
    const mail = ctx.mailer.last(user.email);
    expect(mail?.text).toContain(`Логин: ${user.email}`);
    expect(mail?.text).toContain('https://learn.example.com/login');
    expect(mail?.text).toContain('При входе платформа попросит придумать собственный пароль.');
  });
});
