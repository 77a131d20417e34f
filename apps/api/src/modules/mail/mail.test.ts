import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.js';
import type { AuditedMail } from '../../platform/mail/mailer.js';
import {
  Client,
  clientAs,
  createCourse,
  createDepartment,
  createUser,
  dialectName,
  roleId,
  type TestContext,
  createTestApp,
} from '../../test/harness.js';

const codeFrom = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] ?? '';

const mail = (to: string, subject: string, audit: AuditedMail['audit']): AuditedMail => ({
  to,
  subject,
  html: '<p>x</p>',
  text: 'x',
  audit,
});

describe(`mail log (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const log = async (query = '') => {
    await ctx.mailer.idle();
    const res = await admin.get(`/api/admin/mail-log${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('logs the password mail of a new employee as sent, with the clock time, the user and no course', async () => {
    const dep = await createDepartment(ctx.db, 'Отдел продаж');
    const res = await admin.post('/api/admin/users', {
      first_name: 'Ольга',
      last_name: 'Кузнецова',
      login: 'olga@example.com',
      password: '',
      department_id: dep,
      role_id: await roleId(ctx.db, 'learner'),
      course_ids: [],
      position: null,
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as number;
    const subject = ctx.mailer.last('olga@example.com')?.subject;
    expect(await log()).toEqual({
      result: { success: true },
      items: [
        {
          id: expect.any(Number),
          recipient: 'olga@example.com',
          user_name: 'Кузнецова Ольга',
          kind: 'new_user_password',
          course_id: null,
          course_name: null,
          subject,
          status: 'sent',
          queued_at: '2026-01-15T09:00:00.000Z',
          sent_at: '2026-01-15T09:00:00.000Z',
          attempts: 1,
          error: null,
          next_attempt_at: null,
        },
      ],
      total: 1,
      page: 1,
      per_page: 50,
    });
    const row = await ctx.db.kysely.selectFrom('mail_log').selectAll().executeTakeFirstOrThrow();
    expect([row.user_id, row.body, row.lease_owner]).toEqual([id, null, null]);
  });

  it('logs an admin reset and both recovery mails as their kinds; an unknown address logs nothing', async () => {
    const user = await createUser(ctx.db, { role: 'learner', first_name: 'Анна', last_name: 'Смирнова' });
    expect((await admin.post(`/api/admin/users/${user.id}/reset-password`)).statusCode).toBe(200);
    ctx.clock.advance(MINUTE);
    const guest = new Client(ctx.app);
    await guest.post('/api/password/recovery-request', { email: 'ghost@example.com' });
    expect((await guest.post('/api/password/recovery-request', { email: user.email })).statusCode).toBe(200);
    const pin = codeFrom(ctx.mailer.last(user.email)?.text);
    ctx.clock.advance(MINUTE);
    expect((await guest.post('/api/password/reset-by-pin', { email: user.email, pin_code: pin })).statusCode).toBe(200);
    const { items, total } = await log();
    expect(total).toBe(3);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'new_password', recipient: user.email, sent_at: '2026-01-15T09:02:00.000Z' }),
      expect.objectContaining({ kind: 'password_recovery', user_name: 'Смирнова Анна', status: 'sent' }),
      expect.objectContaining({ kind: 'new_password', sent_at: '2026-01-15T09:00:00.000Z' }),
    ]);
  });

  it('names the course of a mail about one, and keeps the rows of a deleted user', async () => {
    const course = await createCourse(ctx.db, 'Охрана труда');
    const user = await createUser(ctx.db, { role: 'learner', first_name: 'Пётр', last_name: 'Иванов' });
    await ctx.app.jobs.remind(); // nothing due: only to show it leaves the log alone
    const about = { kind: 'reminder_almost_overdue' as const, user_id: user.id, course_id: course };
    await sendDirect(ctx, [mail(user.email, 'Срок курса скоро истекает', about)]);
    expect((await admin.delete(`/api/admin/users/${user.id}`)).statusCode).toBe(200);
    const { items } = await log();
    expect(items).toEqual([
      expect.objectContaining({
        recipient: user.email,
        user_name: 'Иванов Пётр',
        kind: 'reminder_almost_overdue',
        course_id: course,
        course_name: 'Охрана труда',
        subject: 'Срок курса скоро истекает',
        status: 'sent',
      }),
    ]);
  });

  it('pages newest first by the time queued, with the total; the same time by id; bad paging is a 422', async () => {
    for (let i = 1; i <= 7; i++) {
      await sendDirect(ctx, [
        mail(`u${i}@example.com`, `Письмо ${i}`, { kind: 'manager_digest', user_id: null, course_id: null }),
      ]);
      // Two mails at each time: the later id comes first.
      if (i % 2 === 0) ctx.clock.advance(MINUTE);
    }
    const first = await log('?page=1&per_page=3');
    expect([first.total, first.page, first.per_page]).toEqual([7, 1, 3]);
    expect(first.items.map((i: { subject: string }) => i.subject)).toEqual(['Письмо 7', 'Письмо 6', 'Письмо 5']);
    const last = await log('?page=3&per_page=3');
    expect(last.items.map((i: { subject: string; user_name: string | null }) => [i.subject, i.user_name])).toEqual([
      ['Письмо 1', null],
    ]);
    expect((await log('?page=9&per_page=3')).items).toEqual([]);
    for (const bad of ['?per_page=201', '?per_page=0', '?page=0', '?page=x']) {
      const res = await admin.get(`/api/admin/mail-log${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().result.success).toBe(false);
    }
    expect((await admin.get('/api/admin/mail-log?per_page=200')).statusCode).toBe(200);
  });

  it('is for admins: a learner gets 403, no session 401 — the list and the resend alike', async () => {
    const { client: learner } = await clientAs(ctx, 'learner');
    for (const res of [await learner.get('/api/admin/mail-log'), await learner.post('/api/admin/mail-log/1/resend')])
      expect([res.statusCode, res.json().result.message]).toEqual([403, 'Доступ запрещен']);
    const { client: manager } = await clientAs(ctx, 'manager');
    expect((await manager.post('/api/admin/mail-log/1/resend')).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/mail-log')).statusCode).toBe(401);
    expect((await new Client(ctx.app).post('/api/admin/mail-log/1/resend')).statusCode).toBe(401);
  });

  it('sends a failed mail again on an admin’s word only; a queued or sent one, or none, is refused in Russian', async () => {
    await sendDirect(ctx, [
      mail('a@example.com', 'Письмо', { kind: 'manager_digest', user_id: null, course_id: null }),
    ]);
    const sent = (await log()).items[0];
    const again = await admin.post(`/api/admin/mail-log/${sent.id}/resend`);
    expect([again.statusCode, again.json().result]).toEqual([
      422,
      { success: false, message: 'Отправить снова можно только письмо, которое не удалось отправить' },
    ]);
    const none = await admin.post('/api/admin/mail-log/999999/resend');
    expect([none.statusCode, none.json().result.message]).toEqual([404, 'Письмо не найдено']);
    expect((await admin.post('/api/admin/mail-log/abc/resend')).statusCode).toBe(422);
    expect(ctx.mailer.sent).toHaveLength(1);
  });
});

/** Queues mails as a service does, through the app's outbox, and waits for their delivery pass. */
async function sendDirect(ctx: TestContext, mails: AuditedMail[]): Promise<void> {
  for (const m of mails) await ctx.app.mailer.send(m);
  await ctx.mailer.idle();
}
