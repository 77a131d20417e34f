import {
  courseSettingsProblems,
  type ConstructorCourse,
  type CourseDayField,
  type UpdateCourseRequest,
} from '@lms/contract';
import { isHttpError } from '../../lib/http';
import { digitsOnly } from './testRules';

/*
 * The course settings form (docs/product.md §Course settings; issue 30): the day counts are typed as text and checked
 * by the contract's rule, the same one the server applies. Nothing is rewritten on the way: a 0 or an
 * empty field stays as typed, with the reason beside it, and the form is not sent.
 */

export type Accessibility = ConstructorCourse['accessibility'];
export const DAY_FIELDS: readonly CourseDayField[] = ['deadline_value', 'deadline_warning_days', 'recurrence_value'];

export interface CourseSettingsForm {
  has_deadline: boolean;
  deadline_type: ConstructorCourse['deadline_type'];
  deadline_value: string;
  deadline_warning_days: string;
  has_recurrence: boolean;
  recurrence_value: string;
  accessibility: Accessibility;
}

export type DayErrors = Partial<Record<CourseDayField, string>>;

export function courseSettingsFormOf(course: ConstructorCourse): CourseSettingsForm {
  return {
    has_deadline: course.has_deadline,
    deadline_type: course.deadline_type,
    deadline_value: String(course.deadline_value),
    deadline_warning_days: String(course.deadline_warning_days),
    has_recurrence: course.has_recurrence,
    recurrence_value: String(course.recurrence_value),
    accessibility: course.accessibility,
  };
}

/** A day count as typed: up to 3 digits; an empty field is no number at all (NaN), not 0 or 1. */
function typedDays(value: string): number {
  const digits = digitsOnly(value);
  return digits === '' ? Number.NaN : Number(digits);
}

/** What is wrong with the shown day fields, by field (values behind a switch that is off are not checked). */
export function settingsProblems(form: CourseSettingsForm): DayErrors {
  return courseSettingsProblems({
    has_deadline: form.has_deadline,
    deadline_value: typedDays(form.deadline_value),
    deadline_warning_days: typedDays(form.deadline_warning_days),
    has_recurrence: form.has_recurrence,
    recurrence_value: typedDays(form.recurrence_value),
  });
}

/**
 * The settings as PUT /api/courses/{id} takes them, for a form without problems. A field behind a
 * switch that is off is sent as typed when it is a valid number, else as stored (it is not in use).
 */
export function courseSettingsPayload(form: CourseSettingsForm, stored: ConstructorCourse): UpdateCourseRequest {
  const days = (field: CourseDayField) => {
    const n = typedDays(form[field]);
    return Number.isInteger(n) && n >= 1 ? n : stored[field];
  };
  return {
    has_deadline: form.has_deadline,
    deadline_type: form.deadline_type,
    deadline_value: days('deadline_value'),
    deadline_unit: 'days',
    deadline_warning_days: days('deadline_warning_days'),
    has_recurrence: form.has_recurrence,
    recurrence_value: days('recurrence_value'),
    recurrence_unit: 'days',
    accessibility: form.accessibility,
  };
}

/** The day fields' messages of a 422 answer (`errors` beside `result`), if it has any. */
export function dayErrorsOf(error: unknown): DayErrors {
  if (!isHttpError(error)) return {};
  const data: unknown = error.response?.data;
  if (typeof data !== 'object' || data === null || !('errors' in data)) return {};
  const errors: unknown = data.errors;
  if (typeof errors !== 'object' || errors === null) return {};
  const found: DayErrors = {};
  for (const field of DAY_FIELDS) {
    const list: unknown = (errors as Record<string, unknown>)[field];
    if (Array.isArray(list) && typeof list[0] === 'string') found[field] = list[0];
  }
  return found;
}
