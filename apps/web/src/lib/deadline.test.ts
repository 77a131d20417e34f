import { describe, expect, it } from 'vitest';
import { courseDeadline, deadlineText, deadlineTone, parseDeadline } from './deadline';

// Local time, as the browser shows it.
const now = new Date(2026, 2, 10, 12, 0);
const inDays = (days: number, hours = 0) => new Date(2026, 2, 10 + days, 12 + hours, 0).toISOString();

describe('deadlineText', () => {
  it("says 'Просрочено' for a moment in the past", () => {
    expect(deadlineText(inDays(0, -1), now)).toBe('Просрочено');
    expect(deadlineText(inDays(-40), now)).toBe('Просрочено');
  });

  it("says 'Сегодня' for later today", () => {
    expect(deadlineText(inDays(0, 1), now)).toBe('Сегодня');
    expect(deadlineText(new Date(2026, 2, 10, 23, 59), now)).toBe('Сегодня');
  });

  it('counts calendar days with Russian plural forms', () => {
    expect(deadlineText(new Date(2026, 2, 11, 0, 30), now)).toBe('1 день');
    expect(deadlineText(inDays(1), now)).toBe('1 день');
    expect(deadlineText(inDays(2), now)).toBe('2 дня');
    expect(deadlineText(inDays(3), now)).toBe('3 дня');
    expect(deadlineText(inDays(4), now)).toBe('4 дня');
    expect(deadlineText(inDays(5), now)).toBe('5 дней');
    expect(deadlineText(inDays(11), now)).toBe('11 дней');
    expect(deadlineText(inDays(14), now)).toBe('14 дней');
    expect(deadlineText(inDays(21), now)).toBe('21 день');
    expect(deadlineText(inDays(22), now)).toBe('22 дня');
    expect(deadlineText(inDays(30), now)).toBe('30 дней');
  });

  it("accepts 'DD.MM.YYYY HH:MM' and plain dates", () => {
    expect(deadlineText('12.03.2026 09:15', now)).toBe('2 дня');
    expect(deadlineText('10.03.2026 18:00', now)).toBe('Сегодня');
    expect(deadlineText('10.03.2026 11:59', now)).toBe('Просрочено');
    expect(deadlineText('31.03.2026', now)).toBe('21 день');
    expect(parseDeadline('05.01.2026 08:30')).toEqual(new Date(2026, 0, 5, 8, 30));
  });

  it('gives null for no or an invalid deadline', () => {
    expect(deadlineText(null, now)).toBeNull();
    expect(deadlineText('', now)).toBeNull();
    expect(deadlineText('скоро', now)).toBeNull();
    expect(deadlineText('31.02.2026 10:00', now)).toBeNull();
  });
});

describe('deadlineTone', () => {
  it("follows the server's status only", () => {
    expect(deadlineTone('overdue')).toBe('overdue');
    expect(deadlineTone('almost_overdue')).toBe('almost_overdue');
    expect(deadlineTone('in_order')).toBe('normal');
    expect(deadlineTone(null)).toBe('normal');
    expect(deadlineTone(undefined)).toBe('normal');
  });
});

describe('courseDeadline', () => {
  it("says 'Просрочено' (red) when the server says overdue, even before the local clock does", () => {
    expect(courseDeadline({ deadline: inDays(-1), deadline_status: 'overdue' }, now)).toEqual({
      text: 'Просрочено',
      tone: 'overdue',
      overdue: true,
    });
    expect(courseDeadline({ deadline: inDays(3), deadline_status: 'overdue' }, now)).toEqual({
      text: 'Просрочено',
      tone: 'overdue',
      overdue: true,
    });
  });

  it('shows nothing for a passed deadline the server does not call overdue (completed in time)', () => {
    expect(courseDeadline({ deadline: inDays(-1), deadline_status: 'in_order' }, now)).toBeNull();
    expect(courseDeadline({ deadline: inDays(-1), deadline_status: null }, now)).toBeNull();
  });

  it('gives the days left, coloured by the status', () => {
    expect(courseDeadline({ deadline: inDays(2), deadline_status: 'almost_overdue' }, now)).toEqual({
      text: '2 дня',
      tone: 'almost_overdue',
      overdue: false,
    });
    expect(courseDeadline({ deadline: inDays(20), deadline_status: 'in_order' }, now)).toEqual({
      text: '20 дней',
      tone: 'normal',
      overdue: false,
    });
    expect(courseDeadline({ deadline: inDays(0, 1), deadline_status: undefined }, now)).toEqual({
      text: 'Сегодня',
      tone: 'normal',
      overdue: false,
    });
  });

  it('shows nothing for a completed course: no countdown, and never overdue', () => {
    expect(courseDeadline({ deadline: inDays(5), deadline_status: 'in_order', complete: true }, now)).toBeNull();
    expect(courseDeadline({ deadline: inDays(0, 1), deadline_status: 'in_order', complete: true }, now)).toBeNull();
    expect(courseDeadline({ deadline: inDays(-2), deadline_status: 'in_order', complete: true }, now)).toBeNull();
    expect(courseDeadline({ deadline: inDays(5), deadline_status: 'in_order', complete: false }, now)).toEqual({
      text: '5 дней',
      tone: 'normal',
      overdue: false,
    });
  });

  it('gives null for no or an invalid deadline', () => {
    expect(courseDeadline({ deadline: null, deadline_status: 'overdue' }, now)).toBeNull();
    expect(courseDeadline({ deadline: 'скоро', deadline_status: 'in_order' }, now)).toBeNull();
  });
});
