import { DAY_FORMS, formatCount } from './plural';

export const DEADLINE_PREFIX = 'Осталось';
export const TEXT_OVERDUE = 'Просрочено';
export const TEXT_TODAY = 'Сегодня';

/** How a deadline is coloured: overdue red, almost overdue orange, otherwise neutral. */
export type DeadlineTone = 'overdue' | 'almost_overdue' | 'normal';

/** The server's deadline grouping of a course (docs/product.md §Course card), when it sends one. */
export type DeadlineStatus = 'overdue' | 'almost_overdue' | 'in_order' | null | undefined;

const RU_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A deadline value as a Date (docs/product.md §Course card): 'DD.MM.YYYY HH:MM' (also without the time, or with
 * seconds) in local time, or anything `Date` can parse (ISO). Empty or invalid values give null.
 */
export function parseDeadline(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    const match = RU_DATE.exec(value.trim());
    if (match) {
      const [, d, m, y, hh, mm, ss] = match;
      const date = new Date(Number(y), Number(m) - 1, Number(d), Number(hh ?? 0), Number(mm ?? 0), Number(ss ?? 0));
      // Reject overflowing parts such as 31.02.2026 instead of rolling them over.
      if (date.getDate() !== Number(d) || date.getMonth() !== Number(m) - 1) return null;
      return date;
    }
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whole calendar days (local time) from `now`'s date to `date`'s date: today 0, tomorrow 1. */
export function calendarDaysBetween(now: Date, date: Date): number {
  const a = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const b = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((b - a) / (24 * 60 * 60 * 1000));
}

/**
 * The time left to a deadline as a card shows it after 'Осталось' (docs/product.md §Course card): a past moment
 * 'Просрочено'; later today 'Сегодня'; then '1 день', '2 дня' … '4 дня', '5 дней', '21 день',
 * '22 дня' (Russian plural rules). No or an invalid deadline gives null.
 */
export function deadlineText(value: string | number | Date | null | undefined, now: Date = new Date()): string | null {
  const date = parseDeadline(value);
  if (!date) return null;
  if (date.getTime() < now.getTime()) return TEXT_OVERDUE;
  const days = calendarDaysBetween(now, date);
  if (days <= 0) return TEXT_TODAY;
  return formatCount(days, DAY_FORMS);
}

/**
 * The colour of a deadline, from the server's status only (docs/rules.md §Deadlines): red when
 * overdue, orange when almost overdue, otherwise neutral. The local clock never makes it red.
 */
export function deadlineTone(status: DeadlineStatus): DeadlineTone {
  if (status === 'overdue') return 'overdue';
  if (status === 'almost_overdue') return 'almost_overdue';
  return 'normal';
}

/** What a course card shows of its deadline: the text after 'Осталось' (or 'Просрочено') and its colour. */
export interface CourseDeadline {
  text: string;
  tone: DeadlineTone;
  overdue: boolean;
}

/** What of a course decides how its deadline shows: the date, the server's status, completion. */
export interface DeadlineOf {
  deadline: string | number | Date | null | undefined;
  deadline_status?: DeadlineStatus;
  complete?: boolean;
}

/**
 * A course's deadline as the home card and the course page show it. A completed course shows none:
 * nothing is left to do, so there is no countdown, and it is never overdue. Whether a course is
 * overdue is the server's word (`deadline_status`); the date only gives the days left. A deadline
 * that has passed while the server does not call it overdue is not shown at all. No or an invalid
 * deadline gives null.
 */
export function courseDeadline(course: DeadlineOf, now: Date = new Date()): CourseDeadline | null {
  if (course.complete) return null;
  const text = deadlineText(course.deadline, now);
  if (text === null) return null;
  if (course.deadline_status === 'overdue') return { text: TEXT_OVERDUE, tone: 'overdue', overdue: true };
  if (text === TEXT_OVERDUE) return null;
  return { text, tone: deadlineTone(course.deadline_status), overdue: false };
}
