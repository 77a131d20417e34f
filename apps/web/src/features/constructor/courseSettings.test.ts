import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http';
import { courseSettingsPayload, dayErrorsOf, settingsProblems, type CourseSettingsForm } from './courseSettings';
import { constructorCourse } from '../../test/fixtures';

const stored = constructorCourse({ is_published: true });

const form = (change: Partial<CourseSettingsForm> = {}): CourseSettingsForm => ({
  has_deadline: true,
  deadline_type: 'from_start',
  deadline_value: '10',
  deadline_warning_days: '3',
  has_recurrence: true,
  recurrence_value: '365',
  accessibility: 'enrolled_only',
  ...change,
});

describe('course settings form', () => {
  it('sends the days as numbers', () => {
    expect(courseSettingsPayload(form(), stored)).toEqual({
      has_deadline: true,
      deadline_type: 'from_start',
      deadline_value: 10,
      deadline_unit: 'days',
      deadline_warning_days: 3,
      has_recurrence: true,
      recurrence_value: 365,
      recurrence_unit: 'days',
      accessibility: 'enrolled_only',
    });
  });

  it('never turns an empty or 0 value into 1: it is a problem of its field', () => {
    expect(settingsProblems(form({ deadline_warning_days: '' }))).toEqual({
      deadline_warning_days: 'Значение от 1 до 999',
    });
    expect(settingsProblems(form({ deadline_value: '0' }))).toEqual({ deadline_value: 'Значение от 1 до 999' });
    expect(settingsProblems(form({ deadline_value: '000', recurrence_value: '0' }))).toEqual({
      deadline_value: 'Значение от 1 до 999',
      recurrence_value: 'Значение от 1 до 999',
    });
  });

  it('a field behind a switch that is off is not checked and goes as stored when it is not a number', () => {
    const off = form({ has_deadline: false, deadline_value: '', deadline_warning_days: '0', has_recurrence: false });
    expect(settingsProblems(off)).toEqual({});
    expect(courseSettingsPayload(off, stored)).toMatchObject({ deadline_value: 30, deadline_warning_days: 3 });
  });

  it('reads the fields of a 422 answer', () => {
    const refused = new HttpError('Request failed', 'ERR_BAD_REQUEST', undefined, {
      status: 422,
      config: {},
      data: {
        result: { success: false, message: 'Предупреждение не может быть дольше срока прохождения' },
        errors: { deadline_warning_days: ['Предупреждение не может быть дольше срока прохождения'], title: ['x'] },
      },
    });
    expect(dayErrorsOf(refused)).toEqual({
      deadline_warning_days: 'Предупреждение не может быть дольше срока прохождения',
    });
    expect(dayErrorsOf(new Error('x'))).toEqual({});
  });
});
