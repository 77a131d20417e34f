import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.js';
import {
  Client,
  clientAs,
  createDepartment,
  createTestApp,
  dialectName,
  type TestContext,
} from '../../test/harness.js';

describe(`profile (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("reads the user's own record", async () => {
    const dep = await createDepartment(ctx.db, 'Бухгалтерия');
    const { client, user } = await clientAs(ctx, 'learner', {
      department_id: dep,
      first_name: 'Анна',
      last_name: 'Смирнова',
    });
    const res = await client.get('/api/profile');
    expect(res.json()).toEqual({
      result: { success: true },
      data: {
        id: user.id,
        first_name: 'Анна',
        last_name: 'Смирнова',
        role: { name: 'Ученик' },
        department: { name: 'Бухгалтерия' },
        position: null,
        email: user.email,
        reminder_mails: true,
        digest_mails: null,
      },
    });
    expect((await new Client(ctx.app).get('/api/profile')).statusCode).toBe(401);
  });

  it('changes the password: this session stays, the others end, the old password stops working', async () => {
    const { client, user } = await clientAs(ctx, 'learner');
    const other = new Client(ctx.app);
    await other.signIn(user.email, user.password);
    const body = {
      old_password: user.password,
      new_password: 'Новый-пароль-1',
      new_password_confirmation: 'Новый-пароль-1',
    };
    const res = await client.post('/api/profile/change-password', body);
    expect(res.json().result).toEqual({ success: true, message: 'Пароль успешно изменён' });
    expect((await client.get('/api/profile')).statusCode).toBe(200);
    expect((await other.get('/api/profile')).statusCode).toBe(401);
    expect(
      (await new Client(ctx.app).post('/login', { login: user.email, password: user.password, remember: false }))
        .statusCode,
    ).toBe(422);
    await new Client(ctx.app).signIn(user.email, 'Новый-пароль-1');
  });

  it('refuses a wrong old password, a short, mismatched, unchanged or login-like new one; 429 after 5 wrong tries', async () => {
    const { client, user } = await clientAs(ctx, 'learner');
    const change = (old_password: string, new_password: string, new_password_confirmation = new_password) =>
      client.post('/api/profile/change-password', { old_password, new_password, new_password_confirmation });
    const cases: [string, Awaited<ReturnType<typeof change>>][] = [
      ['Подтверждение пароля не совпадает', await change(user.password, 'Длинный-пароль-1', 'Другой-пароль-1')],
      ['Новый пароль должен содержать не менее 8 символов', await change(user.password, 'Кор-1')],
      ['Новый пароль должен отличаться от старого', await change(user.password, user.password)],
      ['Пароль не должен совпадать с логином', await change(user.password, user.email)],
      ['Заполните все поля пароля', await change('', 'Длинный-пароль-1')],
    ];
    for (const [message, res] of cases) expect([res.statusCode, res.json().result.message]).toEqual([422, message]);
    for (let i = 0; i < 5; i++) {
      const wrong = await change('не-тот-пароль', 'Длинный-пароль-1');
      expect([wrong.statusCode, wrong.json().result.message]).toEqual([422, 'Неверный текущий пароль']);
    }
    expect((await change(user.password, 'Длинный-пароль-1')).statusCode).toBe(429);
    ctx.clock.advance(MINUTE);
    expect((await change(user.password, 'Длинный-пароль-1')).statusCode).toBe(200);
  });

  it('turns reminder mails off and on again for the signed-in user only', async () => {
    const { client, user } = await clientAs(ctx, 'learner');
    const { client: other } = await clientAs(ctx, 'manager');
    const off = await client.put('/api/profile/preferences', { reminder_mails: false });
    expect([off.statusCode, off.json()]).toEqual([
      200,
      {
        result: { success: true, message: 'Настройки сохранены' },
        data: { reminder_mails: false, digest_mails: null },
      },
    ]);
    expect((await client.get('/api/profile')).json().data.reminder_mails).toBe(false);
    expect((await other.get('/api/profile')).json().data.reminder_mails).toBe(true);
    const row = await ctx.db.kysely
      .selectFrom('users')
      .select('reminder_mails')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.reminder_mails).toBe(false);
    expect((await client.put('/api/profile/preferences', { reminder_mails: true })).statusCode).toBe(200);
    expect((await client.get('/api/profile')).json().data.reminder_mails).toBe(true);
  });

  it('refuses bad preferences with a Russian 422 and changes nothing; 401 without a session', async () => {
    const { client } = await clientAs(ctx, 'learner');
    await client.put('/api/profile/preferences', { reminder_mails: false });
    for (const body of [{}, { reminder_mails: 'false' }, { reminder_mails: null }, { reminder_mails: 0 }]) {
      const res = await client.put('/api/profile/preferences', body);
      expect([res.statusCode, res.json().result.message], JSON.stringify(body)).toEqual([
        422,
        'Укажите, присылать ли напоминания о сроках: да или нет',
      ]);
    }
    expect((await client.get('/api/profile')).json().data.reminder_mails).toBe(false);
    expect((await new Client(ctx.app).put('/api/profile/preferences', { reminder_mails: true })).statusCode).toBe(401);
    const digest = await client.put('/api/profile/preferences', { reminder_mails: false, digest_mails: false });
    expect([digest.statusCode, digest.json().result.message]).toEqual([
      422,
      'Еженедельная сводка приходит только руководителям и администраторам',
    ]);
  });

  it('lets a manager turn the weekly digest off and on; the reminder switch stays apart', async () => {
    const { client } = await clientAs(ctx, 'manager');
    expect((await client.get('/api/profile')).json().data).toMatchObject({ reminder_mails: true, digest_mails: true });
    const off = await client.put('/api/profile/preferences', { reminder_mails: true, digest_mails: false });
    expect(off.json().data).toEqual({ reminder_mails: true, digest_mails: false });
    expect((await client.get('/api/profile')).json().data).toMatchObject({ reminder_mails: true, digest_mails: false });
    const bad = await client.put('/api/profile/preferences', { reminder_mails: true, digest_mails: 'no' });
    expect([bad.statusCode, bad.json().result.message]).toEqual([
      422,
      'Укажите, присылать ли еженедельную сводку: да или нет',
    ]);
    expect((await client.put('/api/profile/preferences', { reminder_mails: true })).json().data.digest_mails).toBe(
      false,
    );
  });
});
