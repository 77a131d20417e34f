import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE } from '../../platform/clock.js';
import { BackgroundMailer, type MailMessage } from '../../platform/mail/mailer.js';
import { MailLogRepository } from './repository.js';
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

const message = (to: string, subject = 'Тема'): MailMessage => ({ to, subject, html: '<p>x</p>', text: 'x' });

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

  it('logs the password mail of a new employee with the clock time, the user and no course', async () => {
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
          sent_at: '2026-01-15T09:00:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      per_page: 50,
    });
    const row = await ctx.db.kysely.selectFrom('mail_log').selectAll().executeTakeFirstOrThrow();
    expect(row.user_id).toBe(id);
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
    expect(items.map((i: { kind: string; recipient: string; user_name: string; sent_at: string }) => i)).toEqual([
      expect.objectContaining({ kind: 'new_password', recipient: user.email, sent_at: '2026-01-15T09:02:00.000Z' }),
      expect.objectContaining({ kind: 'password_recovery', user_name: 'Смирнова Анна' }),
      expect.objectContaining({ kind: 'new_password', sent_at: '2026-01-15T09:00:00.000Z' }),
    ]);
  });

  it('names the course of a mail about one (as a reminder would send it), and keeps rows of a deleted user', async () => {
    const course = await createCourse(ctx.db, 'Охрана труда');
    const user = await createUser(ctx.db, { role: 'learner', first_name: 'Пётр', last_name: 'Иванов' });
    ctx.mailer.send({
      ...message(user.email, 'Срок курса скоро истекает'),
      audit: { kind: 'reminder_almost_overdue', user_id: user.id, course_id: course },
    });
    ctx.clock.advance(MINUTE);
    ctx.mailer.send({
      ...message(user.email, 'Срок курса скоро истекает'),
      audit: { kind: 'reminder_almost_overdue', user_id: user.id, course_id: course },
    });
    // A mail without `audit` is not logged.
    ctx.mailer.send(message('nobody@example.com'));
    await ctx.mailer.idle();
    const repo = new MailLogRepository({ db: ctx.db.kysely });
    expect(await repo.lastSentAt(user.id, course, 'reminder_almost_overdue')).toBe('2026-01-15T09:01:00.000Z');
    expect(await repo.lastSentAt(user.id, course, 'reminder_overdue')).toBeNull();
    expect(await repo.lastSentAt(user.id, null, 'reminder_almost_overdue')).toBeNull();
    expect((await admin.delete(`/api/admin/users/${user.id}`)).statusCode).toBe(200);
    const { items } = await log();
    expect(items).toHaveLength(2);
    expect(items[1]).toEqual(
      expect.objectContaining({
        recipient: user.email,
        user_name: 'Иванов Пётр',
        kind: 'reminder_almost_overdue',
        course_id: course,
        course_name: 'Охрана труда',
        subject: 'Срок курса скоро истекает',
      }),
    );
  });

  it('pages newest first with the total; the same time is ordered by id; bad paging is a 422', async () => {
    for (let i = 1; i <= 7; i++) {
      ctx.mailer.send({
        ...message(`u${i}@example.com`, `Письмо ${i}`),
        audit: { kind: 'manager_digest', user_id: null, course_id: null },
      });
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

  it('is for admins: a learner gets 403, no session 401', async () => {
    const { client: learner } = await clientAs(ctx, 'learner');
    const denied = await learner.get('/api/admin/mail-log');
    expect([denied.statusCode, denied.json().result.message]).toEqual([403, 'Доступ запрещен']);
    expect((await new Client(ctx.app).get('/api/admin/mail-log')).statusCode).toBe(401);
  });
});

describe('mailer and the mail log', () => {
  const quiet = () => ({ info: vi.fn(), error: vi.fn() });

  it('records a delivered mail once, after delivery; a failing log neither throws nor sends it again', async () => {
    const deliver = vi.fn(async () => {});
    const log = quiet();
    const mailer = new BackgroundMailer(deliver, log, [1, 1]);
    const record = vi.fn(async () => {
      expect(deliver).toHaveBeenCalledTimes(1);
      throw new Error('database gone');
    });
    mailer.setAuditSink({ record });
    mailer.send({ ...message('a@example.com'), audit: { kind: 'new_password', user_id: 1, course_id: null } });
    await mailer.idle();
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(record).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ kind: 'new_password' }), 'mail log failed');
  });

  it('records nothing for a mail that was never delivered, and records after a retry that delivered', async () => {
    const record = vi.fn(async () => {});
    const dead = new BackgroundMailer(async () => Promise.reject(new Error('down')), quiet(), [1]);
    dead.setAuditSink({ record });
    dead.send({ ...message('a@example.com'), audit: { kind: 'new_password', user_id: null, course_id: null } });
    await dead.idle();
    expect(record).not.toHaveBeenCalled();

    let tries = 0;
    const flaky = new BackgroundMailer(
      async () => {
        tries += 1;
        if (tries === 1) throw new Error('busy');
      },
      quiet(),
      [1],
    );
    flaky.setAuditSink({ record });
    flaky.send({ ...message('b@example.com'), audit: { kind: 'new_password', user_id: null, course_id: null } });
    await flaky.idle();
    expect([tries, record.mock.calls.length]).toEqual([2, 1]);
  });
});
