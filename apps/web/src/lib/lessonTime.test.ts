import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, secondsBetween } from './lessonTime';

describe('lesson times', () => {
  it('formats durations as HH:MM:SS', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(3661)).toBe('01:01:01');
    expect(formatDuration(-5)).toBe('00:00:00');
  });

  it('counts whole seconds between two moments', () => {
    expect(secondsBetween('2026-03-01T10:00:00.000Z', '2026-03-01T10:01:05.900Z')).toBe(65);
    expect(secondsBetween(null, '2026-03-01T10:00:00.000Z')).toBe(0);
    expect(secondsBetween('2026-03-01T10:00:00.000Z', '2026-03-01T09:00:00.000Z')).toBe(0);
  });

  it('formats a date as dd.mm.yyyy hh:mm', () => {
    const local = new Date(2026, 2, 5, 9, 7);
    expect(formatDateTime(local.toISOString())).toBe('05.03.2026 09:07');
    expect(formatDateTime('нет')).toBe('нет');
  });
});
