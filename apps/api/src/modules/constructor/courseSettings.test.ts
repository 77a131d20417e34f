import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';

const WARNING_TOO_LONG = 'Предупреждение не может быть дольше срока прохождения';
const RECURRENCE_TOO_SHORT = 'Период повторения не может быть короче срока прохождения';
const RANGE = 'Значение от 1 до 999';

/**
 * Course settings that make no sense are refused (issue 30 item 9): a warning window longer than
 * the deadline, a recurrence shorter than it, a value of 0. A 422 in the API's format with the
 * message under the field's name, and nothing changed.
 */
describe(`course settings rules (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let course: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    author = (await clientAs(ctx, 'author')).client;
    course = await createCourse(ctx.db, 'Охрана труда');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const stored = async () => (await author.get(`/api/courses/${course}`)).json().result.course;
  const settings = {
    has_deadline: true,
    deadline_type: 'from_enrollment',
    deadline_value: 14,
    deadline_unit: 'days',
    deadline_warning_days: 3,
    has_recurrence: true,
    recurrence_value: 30,
    recurrence_unit: 'days',
    accessibility: 'everyone',
  };

  it('refuses a warning window longer than the deadline and a recurrence shorter than it', async () => {
    expect((await author.put(`/api/courses/${course}`, settings)).statusCode).toBe(200);
    const before = await stored();

    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...settings, deadline_warning_days: 15 }, 'deadline_warning_days', WARNING_TOO_LONG],
      [{ ...settings, recurrence_value: 13 }, 'recurrence_value', RECURRENCE_TOO_SHORT],
      // against the stored values: only the field sent
      [{ deadline_warning_days: 20 }, 'deadline_warning_days', WARNING_TOO_LONG],
      [{ deadline_value: 31 }, 'recurrence_value', RECURRENCE_TOO_SHORT],
      [{ deadline_value: 2 }, 'deadline_warning_days', WARNING_TOO_LONG],
      [{ recurrence_value: 7 }, 'recurrence_value', RECURRENCE_TOO_SHORT],
      // 0 is not rewritten to 1
      [{ ...settings, deadline_warning_days: 0 }, 'deadline_warning_days', RANGE],
      [{ ...settings, deadline_value: 0 }, 'deadline_value', RANGE],
      [{ ...settings, recurrence_value: 0 }, 'recurrence_value', RANGE],
    ];
    for (const [body, field, message] of cases) {
      const res = await author.put(`/api/courses/${course}`, body);
      const label = JSON.stringify(body);
      expect([label, res.statusCode]).toEqual([label, 422]);
      expect([label, res.json()]).toEqual([
        label,
        { result: { success: false, message }, errors: expect.objectContaining({ [field]: [message] }) },
      ]);
    }
    expect(await stored()).toEqual(before);
  });

  it('accepts the edges and ignores the rules of a switch that is off', async () => {
    const equal = await author.put(`/api/courses/${course}`, {
      ...settings,
      deadline_value: 30,
      deadline_warning_days: 30,
      recurrence_value: 30,
    });
    expect(equal.statusCode).toBe(200);
    expect(equal.json().result.course).toMatchObject({
      deadline_value: 30,
      deadline_warning_days: 30,
      recurrence_value: 30,
    });

    // No deadline: the warning and the recurrence are not measured against it.
    const noDeadline = await author.put(`/api/courses/${course}`, {
      ...settings,
      has_deadline: false,
      deadline_value: 10,
      deadline_warning_days: 20,
      recurrence_value: 5,
    });
    expect(noDeadline.statusCode).toBe(200);
    // Turning the deadline on with those values is refused, and nothing changes.
    const on = await author.put(`/api/courses/${course}`, { has_deadline: true });
    expect(on.statusCode).toBe(422);
    expect(on.json().errors).toMatchObject({
      deadline_warning_days: [WARNING_TOO_LONG],
      recurrence_value: [RECURRENCE_TOO_SHORT],
    });
    expect((await stored()).has_deadline).toBe(false);

    // No recurrence: a short recurrence value is not checked.
    const noRecurrence = await author.put(`/api/courses/${course}`, {
      ...settings,
      deadline_value: 10,
      deadline_warning_days: 5,
      has_recurrence: false,
      recurrence_value: 5,
    });
    expect(noRecurrence.statusCode).toBe(200);
  });

  it('saves the title of a course whose stored settings break the rules', async () => {
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_deadline: true, deadline_value: 5, deadline_warning_days: 9 })
      .where('id', '=', course)
      .execute();
    const renamed = await author.put(`/api/courses/${course}`, { title: 'Пожарная безопасность' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().result.course.title).toBe('Пожарная безопасность');
    // Accessibility alone does not touch the deadline rules either.
    expect((await author.put(`/api/courses/${course}`, { accessibility: 'nobody' })).statusCode).toBe(200);
  });
});
