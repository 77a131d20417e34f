import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from './platform/clock.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from './test/harness.js';

/**
 * Issue 30 item 24: every date the server writes for people — mails, digests, exports, the analytics
 * screen's deadline strings — is the calendar day of the company's time zone (TIMEZONE). A deadline at
 * 21:30 UTC is the next day in Moscow and the same day in New York: each place says the same day.
 */
describe.each([
  { zone: undefined, day: '13.03.2026' },
  { zone: 'America/New_York', day: '12.03.2026' },
])(`dates for people, TIMEZONE $zone (unset: Europe/Moscow) (${dialectName})`, ({ zone, day }) => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  it('are the same calendar day in the analytics card, the reminder, the digest and the export', async () => {
    ctx = await createTestApp(zone ? { TIMEZONE: zone } : {});
    // Enrolled at 21:30 UTC with ten days to go: due 2026-03-12T21:30Z.
    ctx.clock.set('2026-03-02T21:30:00.000Z');
    const { client: admin, user: adminUser } = await clientAs(ctx, 'admin');
    const department = await createDepartment(ctx.db, 'Склад');
    const manager = await createUser(ctx.db, { role: 'manager', department_id: department });
    const course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    await createModuleWith(ctx.db, course, { lessons: 1 });
    const settings = await admin.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_enrollment',
      deadline_value: 10,
      deadline_warning_days: 3,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const learner = await createUser(ctx.db, {
      role: 'learner',
      department_id: department,
      first_name: 'Анна',
      last_name: 'Иванова',
    });
    expect(
      (await admin.post('/api/admin/user-courses/attach', { user_id: learner.id, course_ids: [course] })).statusCode,
    ).toBe(200);

    // The warning window: the reminder names the day, and so does the manager's digest of the week.
    ctx.clock.set('2026-03-10T09:00:00.000Z');
    await admin.signIn(adminUser.email);
    await ctx.app.jobs.remind();
    await ctx.mailer.idle();
    const reminder = ctx.mailer.sent.find((m) => m.to === learner.email);
    expect(reminder?.text).toContain(`нужно пройти до ${day}.`);
    const digest = ctx.mailer.sent.find((m) => m.to === manager.email);
    expect(digest?.text).toContain(`Иванова Анна — «Охрана труда», срок ${day}`);

    // The analytics card's string and the export's date cell.
    const overview = (await admin.get('/api/analytics/users')).json().result.analytic;
    expect(overview.almost_overdue[0]).toMatchObject({ name: 'Иванова Анна', deadline: day });
    const csv = await admin.get('/api/analytics/export?format=csv');
    expect(csv.statusCode).toBe(200);
    const line = csv.rawPayload
      .toString('utf8')
      .split('\r\n')
      .find((l) => l.startsWith('Иванова Анна'));
    expect(line?.split(';')[4]).toBe(day);

    // The overdue reminder, a day later.
    ctx.clock.set(new Date(Date.parse('2026-03-12T21:30:00.000Z') + MINUTE));
    await ctx.app.jobs.remind();
    await ctx.mailer.idle();
    const overdue = ctx.mailer.sent.filter((m) => m.to === learner.email).at(-1);
    expect(overdue?.text).toContain(`истёк ${day}`);
  });
});
