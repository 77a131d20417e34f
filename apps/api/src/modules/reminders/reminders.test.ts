import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, MINUTE } from '../../platform/clock.js';
import type { MailTransport } from '../../platform/mail/mailer.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  queriesDuring,
  type TestContext,
} from '../../test/harness.js';
import { CapturingTransport } from '../../test/mail.js';
import { RemindersRepository, type ReminderClaim } from './repository.js';

const PUBLIC_URL = 'https://learn.example.com';

describe(`deadline reminders and weekly digests (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminEmail: string;
  let course: number;
  let lesson: number;
  let department: number;
  let learner: { id: number; email: string; client: Client };
  let quiet: { id: number; email: string };
  let manager: { id: number; email: string };
  const start = new Date('2026-03-02T09:00:00.000Z'); // a Monday

  beforeEach(async () => {
    ctx = await createTestApp({ PUBLIC_URL });
    ctx.clock.set(start);
    const a = await clientAs(ctx, 'admin');
    admin = a.client;
    adminEmail = a.user.email;
    department = await createDepartment(ctx.db, 'Склад');
    course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    lesson = (await createModuleWith(ctx.db, course, { lessons: 1 })).lessonIds[0] as number;
    const settings = await admin.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 10,
      deadline_warning_days: 3,
      has_recurrence: true,
      recurrence_value: 30,
    });
    expect(settings.statusCode).toBe(200);
    const l = await clientAs(ctx, 'learner', { department_id: department, first_name: 'Анна', last_name: 'Иванова' });
    learner = { id: l.user.id, email: l.user.email, client: l.client };
    const q = await clientAs(ctx, 'learner', { department_id: department, first_name: 'Олег', last_name: 'Тихий' });
    quiet = { id: q.user.id, email: q.user.email };
    expect((await q.client.put('/api/profile/preferences', { reminder_mails: false })).statusCode).toBe(200);
    manager = await createUser(ctx.db, { role: 'manager', department_id: department });
    for (const id of [learner.id, quiet.id])
      expect(
        (await admin.post('/api/admin/user-courses/attach', { user_id: id, course_ids: [course] })).statusCode,
      ).toBe(200);
    await ctx.mailer.idle();
    ctx.mailer.sent.length = 0;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const at = (ms: number) => ctx.clock.set(new Date(start.getTime() + ms));
  /** A reminder pass, and the delivery of what it queued. */
  const pass = async () => {
    const result = await ctx.app.jobs.remind();
    await ctx.mailer.idle();
    return result;
  };
  const reminders = (to: string) => ctx.mailer.sent.filter((m) => m.to === to && m.audit.kind.startsWith('reminder'));

  it('sends each kind once, on the right day and not before, to learners who want them', async () => {
    at(7 * DAY - MINUTE);
    expect((await pass()).reminders).toBe(0);

    at(7 * DAY + MINUTE); // the warning window: 3 days before the 10-day deadline
    expect((await pass()).reminders).toBe(1);
    const almost = reminders(learner.email);
    expect(almost).toHaveLength(1);
    expect(almost[0]?.audit).toEqual({ kind: 'reminder_almost_overdue', user_id: learner.id, course_id: course });
    expect(almost[0]?.subject).toContain('«Охрана труда»');
    expect(almost[0]?.text).toContain('12.03.2026');
    expect(almost[0]?.text).toContain(`${PUBLIC_URL}/courses/${course}`);
    expect(almost[0]?.html).toContain(`href="${PUBLIC_URL}/courses/${course}"`);
    expect(reminders(quiet.email)).toHaveLength(0);
    at(8 * DAY);
    expect((await pass()).reminders).toBe(0);

    at(10 * DAY - MINUTE);
    expect((await pass()).reminders).toBe(0);
    at(10 * DAY + MINUTE);
    expect((await pass()).reminders).toBe(1);
    expect(reminders(learner.email).map((m) => m.audit.kind)).toEqual(['reminder_almost_overdue', 'reminder_overdue']);
    expect(reminders(learner.email)[1]?.text).toContain('истёк 12.03.2026');
    at(15 * DAY);
    expect((await pass()).reminders).toBe(0);

    // Completed on day 15: the next cycle opens 30 days later, due 10 days after that.
    await learner.client.signIn(learner.email);
    expect((await learner.client.post(`/api/lessons/${lesson}/complete`)).statusCode).toBe(200);
    at(45 * DAY - MINUTE);
    expect((await pass()).reminders).toBe(0);
    at(45 * DAY + MINUTE);
    expect((await pass()).reminders).toBe(1);
    const cycle = reminders(learner.email)[2];
    expect(cycle?.audit?.kind).toBe('reminder_new_cycle');
    expect(cycle?.text).toContain('повторно до 26.04.2026');
    expect((await pass()).reminders).toBe(0);
    // The new cycle has its own warning and overdue reminders.
    at(52 * DAY + MINUTE);
    expect((await pass()).reminders).toBe(1);
    expect(reminders(learner.email).at(-1)?.audit?.kind).toBe('reminder_almost_overdue');
    expect(reminders(quiet.email)).toHaveLength(0);

    await ctx.mailer.idle();
    const logged = await ctx.db.kysely
      .selectFrom('mail_log')
      .select(['kind', 'user_id', 'course_id'])
      .where('user_id', '=', learner.id)
      .orderBy('id')
      .execute();
    expect(logged.map((r) => r.kind)).toEqual([
      'reminder_almost_overdue',
      'reminder_overdue',
      'reminder_new_cycle',
      'reminder_almost_overdue',
    ]);
  });

  it('never sends twice across two app instances sharing the database, even when they run at once', async () => {
    const otherMailer = new CapturingTransport();
    const other = await buildApp({
      config: ctx.config,
      db: ctx.db,
      clock: ctx.clock,
      mailTransport: otherMailer,
      secret: 'test-secret-0123456789-0123456789',
    });
    await other.ready();
    try {
      at(10 * DAY + MINUTE); // overdue, and the warning window has passed unnoticed
      const results = await Promise.all([ctx.app.jobs.remind(), other.jobs.remind(), ctx.app.jobs.remind()]);
      expect(results.reduce((n, r) => n + r.reminders, 0)).toBe(1);
      // the week's digests too: the manager's and the admin's, each claimed by one pass only
      expect(results.reduce((n, r) => n + r.digests, 0)).toBe(2);
      await Promise.all([ctx.app.jobs.mailSettled(), other.jobs.mailSettled()]);
      const sent = [...ctx.mailer.sent, ...otherMailer.sent];
      const digestsTo = sent.filter((m) => m.audit.kind === 'manager_digest');
      expect(digestsTo.map((m) => m.to).sort()).toEqual([adminEmail, manager.email].sort());
      expect(sent.filter((m) => m.to === learner.email).map((m) => m.audit.kind)).toEqual(['reminder_overdue']);
      expect((await other.jobs.remind()).reminders).toBe(0);
    } finally {
      await other.close();
    }
  });

  /** `many` more learners wanting reminders, enrolled in the course like the learner. */
  const addCrowd = async (many: number) => {
    const model = await ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', learner.id)
      .executeTakeFirstOrThrow();
    // The id and the search text are the database's to write (migration 0021).
    const { id: _id, search_text: _searchText, ...rest } = model;
    const crowd = await ctx.db.kysely
      .insertInto('users')
      .values(Array.from({ length: many }, (_, i) => ({ ...rest, email: `crowd-${i}@example.com` })))
      .returning('id')
      .execute();
    for (const u of crowd)
      expect(
        (await admin.post('/api/admin/user-courses/attach', { user_id: u.id, course_ids: [course] })).statusCode,
      ).toBe(200);
  };

  it('lets two processes claim the same 20 000 rows in opposite orders at once without a deadlock', async () => {
    const claims: ReminderClaim[] = [];
    for (const user of [learner.id, quiet.id])
      for (let cycle = 1; cycle <= 5000; cycle++)
        for (const kind of ['reminder_overdue', 'reminder_new_cycle'] as const)
          claims.push({ user_id: user, course_id: course, cycle, kind });
    const claimIn = (order: ReminderClaim[]) => {
      const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
      return uow.run(() => new RemindersRepository(uow).claim(order, start.toISOString()));
    };
    const [one, two] = await Promise.all([claimIn(claims), claimIn([...claims].reverse())]);
    expect(one.length + two.length).toBe(claims.length);
  });

  it('claims a mass change REMINDERS_PER_PASS at a time, each batch with its mails, until none is due', async () => {
    const many = 30;
    await addCrowd(many);
    const mailer = new CapturingTransport();
    const capped = await buildApp({
      config: { ...ctx.config, reminders: { ...ctx.config.reminders, perPass: 8 } },
      db: ctx.db,
      clock: ctx.clock,
      mailTransport: mailer,
      secret: 'test-secret-0123456789-0123456789',
    });
    await capped.ready();
    try {
      at(10 * DAY + MINUTE);
      let result = { reminders: 0, digests: 0 };
      const statements = await queriesDuring(async () => {
        result = await capped.jobs.remind();
      });
      expect(result.reminders).toBe(many + 1);
      // 31 reminders, 8 a batch: four batches, each claimed in one statement.
      expect(statements.filter((q) => /^\s*insert into reminder_deliveries/i.test(q))).toHaveLength(4);
      await capped.jobs.mailSettled();
      const sent = mailer.sent.filter((m) => m.audit.kind === 'reminder_overdue').map((m) => m.to);
      expect(sent).toHaveLength(many + 1);
      expect(new Set(sent).size).toBe(many + 1);
      expect(sent).not.toContain(quiet.email);
      expect((await capped.jobs.remind()).reminders).toBe(0);
    } finally {
      await capped.close();
    }
  });

  it('queues a mass mailing with its claims: a process stopped mid-delivery leaves the rest to the others', async () => {
    const many = 150;
    await addCrowd(many);
    const gates: (() => void)[] = [];
    const delivered: string[] = [];
    const slow: MailTransport = {
      deliver: async (m) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        delivered.push(m.to);
      },
    };
    const other = await buildApp({
      config: ctx.config,
      db: ctx.db,
      clock: ctx.clock,
      mailTransport: slow,
      secret: 'test-secret-0123456789-0123456789',
    });
    // Shutdown stops the outbox before its onClose hooks; this one (the last added, so the first to
    // run) lets the tries under way finish then.
    other.addHook('onClose', async () => {
      for (const open of gates.splice(0)) open();
    });
    await other.ready();
    at(10 * DAY + MINUTE);
    const due = many + 1; // the learner who wants reminders, and the new ones; not the quiet one
    expect((await other.jobs.remind()).reminders).toBe(due);
    // Every mail is in the outbox with its claim; a few are being delivered.
    const queued = await ctx.db.kysely
      .selectFrom('mail_log')
      .select('recipient')
      .where('kind', '=', 'reminder_overdue')
      .execute();
    expect(queued).toHaveLength(due);
    // Four at a time: the process's four tries wait on the server.
    while (gates.length < 4) await new Promise((r) => setImmediate(r));
    await other.close();
    // The tries under way finished; what the stopped process had taken but not tried was given back.
    expect(delivered).toHaveLength(4);
    const left = await ctx.db.kysely
      .selectFrom('mail_log')
      .select(['status', 'lease_owner', 'attempts'])
      .where('status', '=', 'queued')
      .where('kind', '=', 'reminder_overdue')
      .execute();
    expect(left).toHaveLength(due - 4);
    expect(left.every((r) => r.lease_owner === null && r.attempts === 0)).toBe(true);

    // Another process sends exactly the rest, at once: nothing waits for a lease to run out.
    expect((await ctx.app.jobs.remind()).reminders).toBe(0);
    await ctx.app.jobs.deliverMail();
    const all = [...delivered, ...ctx.mailer.sent.filter((m) => m.audit.kind === 'reminder_overdue').map((m) => m.to)];
    expect(new Set(all).size).toBe(due);
    expect(all).toHaveLength(due);
    expect(all).not.toContain(quiet.email);
  });

  it('gives each manager a weekly picture of their department and admins the company, once a week', async () => {
    const elsewhere = await createDepartment(ctx.db, 'Бухгалтерия');
    const calm = await createUser(ctx.db, { role: 'manager', department_id: elsewhere });
    const adminUser = await createUser(ctx.db, { role: 'admin' });
    const off = await createUser(ctx.db, { role: 'manager', department_id: department });
    await ctx.db.kysely.updateTable('users').set({ digest_mails: false }).where('id', '=', off.id).execute();

    at(8 * DAY); // Tuesday of the next week: both learners almost overdue
    await pass();
    const digests = () => ctx.mailer.sent.filter((m) => m.audit.kind === 'manager_digest');
    expect(
      digests()
        .map((m) => m.to)
        .sort(),
    ).toEqual([adminEmail, adminUser.email, manager.email].sort());
    const mine = digests().find((m) => m.to === manager.email);
    expect(mine?.subject).toContain('почти просрочено 2');
    expect(mine?.text).toContain('Иванова Анна — «Охрана труда», срок 12.03.2026');
    expect(mine?.text).toContain('Тихий Олег');
    expect(digests().some((m) => m.to === calm.email || m.to === off.email)).toBe(false);

    at(11 * DAY); // same week: nothing more, although they are overdue now
    await pass();
    expect(digests()).toHaveLength(3);
    at(14 * DAY + MINUTE);
    await pass();
    expect(digests()).toHaveLength(6);
    expect(digests().find((m, i) => i >= 3 && m.to === manager.email)?.subject).toContain('просрочено 2,');
  });
});
