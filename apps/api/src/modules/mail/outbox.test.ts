import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { DAY, HOUR, MINUTE, addMs, iso } from '../../platform/clock.js';
import type { AuditedMail } from '../../platform/mail/mailer.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  untilBlockedBy,
  type TestContext,
} from '../../test/harness.js';
import { startSmtp, type TestSmtp } from '../../test/smtp.js';
import { LEASE_MS, RETRY_DELAYS_MS } from './outbox.js';
import { MailLogRepository } from './repository.js';

const digest = (to: string, text = 'Сводка'): AuditedMail => ({
  to,
  subject: `Сводка для ${to}`,
  html: `<p>${text}</p>`,
  text,
  audit: { kind: 'manager_digest', user_id: null, course_id: null },
});

interface Row {
  id: number;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  body: string | null;
}

describe(`the mail outbox against a real SMTP server (${dialectName})`, () => {
  let smtp: TestSmtp;
  let ctx: TestContext;
  let admin: Client;
  let adminEmail: string;
  beforeEach(async () => {
    smtp = await startSmtp();
    ctx = await createTestApp(
      { MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port), MAIL_FROM: 'LMS <lms@example.com>' },
      { configTransport: true },
    );
    const a = await clientAs(ctx, 'admin');
    admin = a.client;
    adminEmail = a.user.email;
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  const rows = async (): Promise<Row[]> =>
    ctx.db.kysely
      .selectFrom('mail_log')
      .select(['id', 'recipient', 'status', 'attempts', 'last_error', 'next_attempt_at', 'sent_at', 'body'])
      .orderBy('id')
      .execute();
  const acceptedBy = () => {
    const count = new Map<string, number>();
    for (const m of smtp.accepted) for (const to of m.to) count.set(to, (count.get(to) ?? 0) + 1);
    return count;
  };
  /** Queues mails as a service does, and waits for the delivery pass they start. */
  const queue = async (mails: AuditedMail[], app: App = ctx.app) => {
    for (const m of mails) await app.mailer.send(m);
    await app.jobs.mailSettled();
  };

  it('loses no reminder or digest when the server stops mid-pass: each one is delivered once after it is back', async () => {
    // Twelve learners whose course is overdue: one reminder pass queues their mails at once.
    const course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    await createModuleWith(ctx.db, course, { lessons: 1 });
    const set = await admin.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 1,
      deadline_warning_days: 1,
    });
    expect(set.statusCode, set.body).toBe(200);
    const everyone: string[] = [];
    for (let i = 0; i < 12; i++) {
      const learner = await createUser(ctx.db, { role: 'learner', email: `person${i}@example.com` });
      everyone.push(learner.email);
      const attach = await admin.post('/api/admin/user-courses/attach', { user_id: learner.id, course_ids: [course] });
      expect(attach.statusCode).toBe(200);
    }
    ctx.clock.advance(DAY + MINUTE);
    await admin.signIn(adminEmail);
    smtp.stopAfter(3);
    expect(await ctx.app.jobs.remind()).toEqual({ reminders: everyone.length, digests: 1 });
    // The admin's weekly digest of them went with the reminders.
    everyone.push(adminEmail);
    await ctx.app.jobs.mailSettled();

    // The pass went on without the server: what it delivered is sent, the rest waits for a minute.
    const during = await rows();
    const sent = during.filter((r) => r.status === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.length).toBeLessThan(everyone.length);
    expect(sent.map((r) => r.recipient).sort()).toEqual([...acceptedBy().keys()].sort());
    for (const r of during.filter((x) => x.status !== 'sent')) {
      expect(r).toMatchObject({ status: 'queued', attempts: 1, sent_at: null });
      expect(r.last_error).toMatch(/^Почтовый сервер (недоступен|временно не принял письмо: 421)/);
      expect(r.next_attempt_at).toBe(iso(addMs(ctx.clock.now(), RETRY_DELAYS_MS[0] as number)));
      expect(r.body).not.toBeNull();
    }
    const shown = (await admin.get('/api/admin/mail-log')).json().items as { status: string; error: string }[];
    expect(shown.filter((i) => i.status === 'queued')).toHaveLength(everyone.length - sent.length);

    await smtp.start();
    // Not due yet: the back-off is counted on the app's clock, never slept.
    await ctx.app.jobs.deliverMail();
    expect(smtp.accepted).toHaveLength(sent.length);
    ctx.clock.advance(RETRY_DELAYS_MS[0] as number);
    await ctx.app.jobs.deliverMail();
    expect(acceptedBy()).toEqual(new Map(everyone.map((to) => [to, 1])));
    const after = await rows();
    expect(after.every((r) => r.status === 'sent' && r.body === null && r.last_error === null)).toBe(true);
    // Nothing is left to send.
    ctx.clock.advance(DAY);
    await ctx.app.jobs.deliverMail();
    expect(smtp.accepted).toHaveLength(everyone.length);
  });

  it('retries with growing waits for the whole retry window, then marks the mail failed; an admin sends it again', async () => {
    smtp.stop();
    const start = ctx.clock.now().getTime();
    await queue([digest('late@example.com')]);
    const waits: number[] = [];
    for (;;) {
      const [row] = await rows();
      if (!row || row.status !== 'queued') break;
      const next = Date.parse(row.next_attempt_at ?? '');
      waits.push(next - ctx.clock.now().getTime());
      ctx.clock.set(new Date(next));
      await ctx.app.jobs.deliverMail();
    }
    const minutes = waits.map((w) => w / MINUTE);
    expect(minutes.slice(0, 7)).toEqual([1, 5, 15, 30, 60, 120, 120]);
    const [failed] = await rows();
    expect(failed).toMatchObject({ status: 'failed', last_error: 'Почтовый сервер недоступен', next_attempt_at: null });
    // Tried for the whole window (MAIL_RETRY_HOURS, 24 by default), and not much longer.
    expect(ctx.clock.now().getTime() - start).toBeGreaterThanOrEqual(24 * HOUR);
    expect(ctx.clock.now().getTime() - start).toBeLessThan(24 * HOUR + 2 * HOUR);
    expect(failed?.attempts).toBe(waits.length + 1);
    expect(failed?.body).not.toBeNull();

    await admin.signIn(adminEmail); // a day has passed: a new session
    const listed = (await admin.get('/api/admin/mail-log')).json().items[0];
    expect(listed).toMatchObject({ status: 'failed', error: 'Почтовый сервер недоступен', sent_at: null });
    await smtp.start();
    const res = await admin.post(`/api/admin/mail-log/${listed.id}/resend`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({ success: true, message: 'Письмо снова поставлено в очередь на отправку' });
    expect(res.json().item).toMatchObject({ id: listed.id, status: 'queued', attempts: 0, error: null });
    await ctx.app.jobs.mailSettled();
    expect([...acceptedBy()]).toEqual([['late@example.com', 1]]);
    expect((await rows())[0]).toMatchObject({ status: 'sent', body: null, sent_at: iso(ctx.clock.now()) });
    // Sent now: a second resend is refused and sends nothing.
    expect((await admin.post(`/api/admin/mail-log/${listed.id}/resend`)).statusCode).toBe(422);
    expect(smtp.accepted).toHaveLength(1);
  });

  it('gives a mail up at once when the server refuses it for good, with the server’s words', async () => {
    smtp.refuse = (address) => (address === 'nobody@example.com' ? 550 : undefined);
    await queue([digest('nobody@example.com'), digest('somebody@example.com')]);
    const [refused, delivered] = await rows();
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
    expect(refused?.last_error).toMatch(/^Почтовый сервер отказался принять письмо: 550/);
    expect(delivered?.status).toBe('sent');
  });

  it('keeps the content sealed until it is sent: a password is never in the database in the clear', async () => {
    smtp.stop();
    await queue([digest('secret@example.com', 'Password: Pa55-Zx8q')]);
    const [row] = await rows();
    expect(row?.status).toBe('queued');
    expect(row?.body).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('Pa55');
    await smtp.start();
    ctx.clock.advance(MINUTE);
    await ctx.app.jobs.deliverMail();
    expect(smtp.accepted[0]?.raw).toContain('Pa55-Zx8q');
    expect((await rows())[0]?.body).toBeNull();
  });

  it('never sends a mail twice when several processes deliver at once', async () => {
    const others = await Promise.all(
      [1, 2].map(async () => {
        const app = await buildApp({
          config: ctx.config,
          db: ctx.db,
          clock: ctx.clock,
          secret: 'test-secret-0123456789-0123456789',
        });
        await app.ready();
        return app;
      }),
    );
    try {
      smtp.stop();
      const everyone = Array.from({ length: 40 }, (_, i) => `many${i}@example.com`);
      await queue(everyone.map((to) => digest(to)));
      await smtp.start();
      ctx.clock.advance(MINUTE);
      await Promise.all([ctx.app, ...others].flatMap((app) => [app.jobs.deliverMail(), app.jobs.deliverMail()]));
      expect(acceptedBy()).toEqual(new Map(everyone.map((to) => [to, 1])));
      expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 2)).toBe(true);
    } finally {
      for (const app of others) await app.close();
    }
  });

  it('leaves a mail taken by a process that stopped to the others once its lease runs out', async () => {
    smtp.stop();
    await queue([digest('left@example.com')]);
    await smtp.start();
    ctx.clock.advance(MINUTE);
    // Another process takes it, then dies before any outcome.
    const now = ctx.clock.now();
    const taken = await new MailLogRepository({ db: ctx.db.kysely, kind: ctx.db.kind }).claim(
      'dead-process',
      iso(now),
      iso(addMs(now, LEASE_MS)),
      10,
    );
    expect(taken).toHaveLength(1);
    await ctx.app.jobs.deliverMail();
    expect(smtp.accepted).toHaveLength(0);
    ctx.clock.advance(LEASE_MS - 1);
    await ctx.app.jobs.deliverMail();
    expect(smtp.accepted).toHaveLength(0);
    ctx.clock.advance(1);
    await ctx.app.jobs.deliverMail();
    expect([...acceptedBy()]).toEqual([['left@example.com', 1]]);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 3 });
  });
});

describe(`taking mails from the outbox (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('never gives the same mail to two takers, even while one of them holds its transaction open', async () => {
    const k = ctx.db.kysely;
    const now = ctx.clock.now();
    await new MailLogRepository({ db: k, kind: ctx.db.kind }).insertQueued(
      Array.from({ length: 20 }, (_, i) => ({
        recipient: `r${i}@example.com`,
        user_id: null,
        kind: 'manager_digest',
        course_id: null,
        subject: 'Сводка',
        body: 'v1.x',
      })),
      iso(now),
      iso(addMs(now, DAY)),
    );
    const lease = iso(addMs(now, LEASE_MS));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holderPid = 0;
    let first: number[] = [];
    const one = k.transaction().execute(async (trx) => {
      if (ctx.db.kind === 'postgres')
        holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid ?? 0;
      first = (await new MailLogRepository({ db: trx, kind: ctx.db.kind }).claim('one', iso(now), lease, 10)).map(
        (m) => m.id,
      );
      await held;
    });
    while (first.length === 0) await new Promise((resolve) => setImmediate(resolve));
    let secondDone = false;
    const two = new MailLogRepository({ db: k, kind: ctx.db.kind })
      .claim('two', iso(now), lease, 10)
      .finally(() => (secondDone = true));
    // On PostgreSQL the second taker skips the rows the first one locked, rather than waiting for them.
    if (ctx.db.kind === 'postgres') expect(await untilBlockedBy(ctx.db, holderPid, () => secondDone)).toBe(false);
    release();
    await one;
    const second = (await two).map((m) => m.id);
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(10);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });
});
