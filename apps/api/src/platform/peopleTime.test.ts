import { describe, expect, it } from 'vitest';
import { PeopleTime, wallClock } from './peopleTime.js';

describe('dates for people (the company time zone)', () => {
  const moscow = new PeopleTime('Europe/Moscow');
  const newYork = new PeopleTime('America/New_York');

  it('writes the calendar day and time of the zone, not of UTC', () => {
    const late = '2026-03-12T21:30:00.000Z';
    expect([moscow.date(late), moscow.dateTime(late), moscow.dayKey(late)]).toEqual([
      '13.03.2026',
      '13.03.2026 00:30',
      '2026-03-13',
    ]);
    expect([newYork.date(late), newYork.dateTime(new Date(late))]).toEqual(['12.03.2026', '12.03.2026 17:30']);
    expect(moscow.day(late).toISOString()).toBe('2026-03-13T00:00:00.000Z');
    expect(moscow.wallClock(late).toISOString()).toBe('2026-03-13T00:30:00.000Z');
    // The same text whether it was formatted before (kept) or not.
    expect(moscow.date(late)).toBe('13.03.2026');
  });

  it('wallClock follows summer time', () => {
    expect(wallClock(new Date('2026-01-15T12:00:00.000Z'), 'America/New_York').toISOString()).toBe(
      '2026-01-15T07:00:00.000Z',
    );
    expect(wallClock(new Date('2026-07-15T12:00:00.000Z'), 'America/New_York').toISOString()).toBe(
      '2026-07-15T08:00:00.000Z',
    );
  });

  it('finds the day of the latest weekly moment on the zone’s wall clock', () => {
    // Monday 2026-03-02, 09:00 Moscow is 06:00 UTC.
    expect(moscow.lastWeekly(new Date('2026-03-02T05:59:59.000Z'), 1, 9)).toBe('2026-02-23');
    expect(moscow.lastWeekly(new Date('2026-03-02T06:00:00.000Z'), 1, 9)).toBe('2026-03-02');
    expect(moscow.lastWeekly(new Date('2026-03-08T20:59:00.000Z'), 1, 9)).toBe('2026-03-02');
    // Sunday 23:30 in New York is already Monday in UTC: still the week before there.
    expect(newYork.lastWeekly(new Date('2026-03-09T03:30:00.000Z'), 1, 0)).toBe('2026-03-02');
    expect(newYork.lastWeekly(new Date('2026-03-09T04:00:00.000Z'), 1, 0)).toBe('2026-03-09');
    // Across a month and a year.
    expect(moscow.lastWeekly(new Date('2026-01-01T12:00:00.000Z'), 7, 23)).toBe('2025-12-28');
  });
});
