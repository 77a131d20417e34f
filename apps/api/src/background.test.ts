import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FIRST_DIRECTORY_SYNC_MS,
  FIRST_REMINDER_PASS_MS,
  MAIL_PASS_MS,
  SWEEP_MS,
  startBackgroundJobs,
  type Timers,
} from './background.js';
import { DAY, MINUTE } from './platform/clock.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  type TestContext,
} from './test/harness.js';

/** Timers run by the test's hand: what is scheduled, after how long, and firing one on demand. */
class HandTimers implements Timers {
  readonly pending = new Map<number, { name: string; ms: number; run: () => void }>();
  #next = 1;
  schedule(name: string, ms: number, run: () => void): number {
    const id = this.#next++;
    this.pending.set(id, { name, ms, run });
    return id;
  }
  cancel(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** The delay the job `name` is scheduled with, if it is. */
  delayOf(name: string): number | undefined {
    return [...this.pending.values()].find((t) => t.name === name)?.ms;
  }
  /** Fires the job `name` and resolves once it has run and scheduled its next run. */
  async fire(name: string): Promise<void> {
    const entry = [...this.pending.entries()].find(([, t]) => t.name === name);
    if (!entry) throw new Error(`${name} is not scheduled`);
    this.pending.delete(entry[0]);
    entry[1].run();
    while (this.delayOf(name) === undefined) await new Promise((resolve) => setImmediate(resolve));
  }
}

describe(`the server's periodic passes (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminEmail: string;
  let course: number;
  let stop = () => {};
  afterEach(async () => {
    stop();
    await ctx.close();
  });

  async function overdueLearner(email: string) {
    await admin.signIn(adminEmail);
    const learner = await createUser(ctx.db, { role: 'learner', email });
    const res = await admin.post('/api/admin/user-courses/attach', { user_id: learner.id, course_ids: [course] });
    expect(res.statusCode).toBe(200);
  }

  async function start(env: Record<string, string>, opts: Parameters<typeof createTestApp>[1] = {}) {
    ctx = await createTestApp(env, opts);
    const a = await clientAs(ctx, 'admin');
    admin = a.client;
    adminEmail = a.user.email;
    course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    await createModuleWith(ctx.db, course, { lessons: 1 });
    const set = await admin.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 1,
      deadline_warning_days: 1,
    });
    expect(set.statusCode).toBe(200);
  }

  const reminded = () => ctx.mailer.sent.filter((m) => m.audit.kind === 'reminder_overdue').map((m) => m.to);

  it('runs the first reminder pass within a minute of start-up, then every REMINDERS_INTERVAL_MINUTES', async () => {
    await start({ REMINDERS_INTERVAL_MINUTES: '15' });
    await overdueLearner('first@example.com');
    ctx.clock.advance(DAY + MINUTE);
    const timers = new HandTimers();
    stop = startBackgroundJobs(ctx.app, ctx.config, timers);

    const first = timers.delayOf('reminder pass');
    expect(first).toBe(FIRST_REMINDER_PASS_MS);
    expect(first).toBeLessThanOrEqual(MINUTE);
    await timers.fire('reminder pass');
    await ctx.mailer.idle();
    expect(reminded()).toEqual(['first@example.com']);

    // Then the configured interval, counted from the end of the pass.
    expect(timers.delayOf('reminder pass')).toBe(15 * MINUTE);
    await overdueLearner('second@example.com');
    ctx.clock.advance(DAY + MINUTE);
    await timers.fire('reminder pass');
    await ctx.mailer.idle();
    expect(reminded()).toEqual(['first@example.com', 'second@example.com']);
    expect(timers.delayOf('reminder pass')).toBe(15 * MINUTE);

    // The outbox's own pass starts at once and repeats; the sweeps every minute.
    expect(timers.delayOf('mail delivery pass')).toBe(0);
    await timers.fire('mail delivery pass');
    expect(timers.delayOf('mail delivery pass')).toBe(MAIL_PASS_MS);
    expect(timers.delayOf('sweep')).toBe(SWEEP_MS);
    await timers.fire('sweep');
    expect(timers.delayOf('sweep')).toBe(SWEEP_MS);
    // Imported people's invitations: at once, then with the outbox's rhythm.
    expect(timers.delayOf('invitation pass')).toBe(0);
    await timers.fire('invitation pass');
    expect(timers.delayOf('invitation pass')).toBe(MAIL_PASS_MS);

    stop();
    expect(timers.pending.size).toBe(0);
  });

  it('schedules no reminder pass with REMINDERS=off', async () => {
    await start({ REMINDERS: 'off' });
    const timers = new HandTimers();
    stop = startBackgroundJobs(ctx.app, ctx.config, timers);
    expect([...timers.pending.values()].map((t) => t.name).sort()).toEqual([
      'invitation pass',
      'mail delivery pass',
      'sweep',
    ]);
  });

  it('schedules the directory sync when a directory is set up, a minute after start-up, then every interval', async () => {
    const directory = {
      REMINDERS: 'off',
      LDAP_URL: 'ldap://127.0.0.1:1',
      LDAP_BIND_DN: 'cn=reader,dc=example,dc=com',
      LDAP_BIND_PASSWORD: 'secret',
      LDAP_BASE_DN: 'dc=example,dc=com',
      LDAP_SYNC_INTERVAL_MINUTES: '15',
    };
    await start(directory);
    const timers = new HandTimers();
    stop = startBackgroundJobs(ctx.app, ctx.config, timers);
    expect(timers.delayOf('directory sync')).toBe(FIRST_DIRECTORY_SYNC_MS);
    // The directory cannot be reached here: the pass fails, is logged, and keeps its schedule.
    await timers.fire('directory sync');
    expect(timers.delayOf('directory sync')).toBe(15 * MINUTE);
    stop();
    await ctx.close();
    await start({ ...directory, LDAP_SYNC_INTERVAL_MINUTES: '0' });
    const none = new HandTimers();
    stop = startBackgroundJobs(ctx.app, ctx.config, none);
    expect([...none.pending.values()].map((t) => t.name)).not.toContain('directory sync');
  });

  it('logs a failed pass and keeps its schedule', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    await start({ REMINDERS_INTERVAL_MINUTES: '5' }, { logger: { level: 'error', stream } });
    // The pass really fails: a table it reads is gone.
    await sql`alter table reminder_deliveries rename to reminder_deliveries_away`.execute(ctx.db.kysely);
    const timers = new HandTimers();
    stop = startBackgroundJobs(ctx.app, ctx.config, timers);
    await timers.fire('reminder pass');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['reminder pass failed']);
    expect(timers.delayOf('reminder pass')).toBe(5 * MINUTE);
    await sql`alter table reminder_deliveries_away rename to reminder_deliveries`.execute(ctx.db.kysely);
  });
});
