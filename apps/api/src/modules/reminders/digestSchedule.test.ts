import { afterEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from '../../test/harness.js';

/**
 * Issue 30 item 24: the weekly digest goes out on DIGEST_DAY at DIGEST_HOUR of the company's time zone
 * (Monday 09:00 Europe/Moscow by default), whatever the zone's offset that week; a week whose moment
 * passed unseen (the server was down) is sent on the first pass after it.
 */
describe(`the weekly digest's day and hour (${dialectName})`, () => {
  let ctx: TestContext;
  let managerEmail: string;
  afterEach(async () => {
    await ctx.close();
  });

  /** A manager whose department has an overdue learner, so that each week's digest has something to say. */
  async function team(env: Record<string, string>) {
    ctx = await createTestApp(env);
    ctx.clock.set('2026-01-05T12:00:00.000Z');
    const { client: admin } = await clientAs(ctx, 'admin');
    const department = await createDepartment(ctx.db, 'Склад');
    managerEmail = (await createUser(ctx.db, { role: 'manager', department_id: department })).email;
    const course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    await createModuleWith(ctx.db, course, { lessons: 1 });
    await admin.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 1,
      deadline_warning_days: 1,
    });
    const learner = await createUser(ctx.db, { role: 'learner', department_id: department });
    const attach = await admin.post('/api/admin/user-courses/attach', { user_id: learner.id, course_ids: [course] });
    expect(attach.statusCode).toBe(200);
  }

  /** Digests the manager has had, after a pass at `at`. */
  async function digestsAt(at: string): Promise<number> {
    ctx.clock.set(at);
    await ctx.app.jobs.remind();
    await ctx.mailer.idle();
    return ctx.mailer.sent.filter((m) => m.to === managerEmail && m.audit.kind === 'manager_digest').length;
  }

  it('goes out on Monday at 09:00 in Moscow by default (06:00 UTC, no summer time)', async () => {
    await team({});
    // The week before, sent late on its Sunday (the server was started then): a catch-up.
    expect(await digestsAt('2026-03-01T12:00:00.000Z')).toBe(1);
    expect(await digestsAt('2026-03-02T05:59:00.000Z')).toBe(1); // Monday 08:59 in Moscow
    expect(await digestsAt('2026-03-02T06:00:00.000Z')).toBe(2); // 09:00
    expect(await digestsAt('2026-03-08T20:59:00.000Z')).toBe(2); // Sunday 23:59
    expect(await digestsAt('2026-03-09T05:59:00.000Z')).toBe(2);
    expect(await digestsAt('2026-03-09T06:00:00.000Z')).toBe(3);
    // Summer time elsewhere changes nothing in Moscow.
    expect(await digestsAt('2026-03-30T05:59:00.000Z')).toBe(4); // the missed week of 23.03, caught up
    expect(await digestsAt('2026-03-30T06:00:00.000Z')).toBe(5);
  });

  it('follows a zone with summer time, on the configured day and hour', async () => {
    await team({ TIMEZONE: 'America/New_York', DIGEST_DAY: 'wednesday', DIGEST_HOUR: '8' });
    expect(await digestsAt('2026-03-03T12:00:00.000Z')).toBe(1); // Tuesday: the week before, caught up
    // Wednesday 08:00 EST (UTC-5) is 13:00 UTC.
    expect(await digestsAt('2026-03-04T12:59:00.000Z')).toBe(1);
    expect(await digestsAt('2026-03-04T13:00:00.000Z')).toBe(2);
    // Summer time from 8 March: Wednesday 08:00 EDT (UTC-4) is 12:00 UTC.
    expect(await digestsAt('2026-03-11T11:59:00.000Z')).toBe(2);
    expect(await digestsAt('2026-03-11T12:00:00.000Z')).toBe(3);
    expect(await digestsAt('2026-03-12T12:00:00.000Z')).toBe(3);
  });

  it('reaches an hour that a change to summer time skips, and sends once in an hour that repeats', async () => {
    await team({ TIMEZONE: 'Europe/Berlin', DIGEST_DAY: 'sunday', DIGEST_HOUR: '2' });
    expect(await digestsAt('2026-03-28T12:00:00.000Z')).toBe(1);
    // 29 March: the clocks go from 02:00 CET straight to 03:00 CEST (01:00 UTC).
    expect(await digestsAt('2026-03-29T00:59:00.000Z')).toBe(1); // 01:59 CET
    expect(await digestsAt('2026-03-29T01:00:00.000Z')).toBe(2); // 03:00 CEST
    // 25 October: 02:00–03:00 happens twice (CEST, then CET): one digest.
    expect(await digestsAt('2026-10-24T12:00:00.000Z')).toBe(3);
    expect(await digestsAt('2026-10-24T23:59:00.000Z')).toBe(3); // 01:59 CEST
    expect(await digestsAt('2026-10-25T00:00:00.000Z')).toBe(4); // 02:00 CEST
    expect(await digestsAt('2026-10-25T01:00:00.000Z')).toBe(4); // 02:00 CET
  });
});
