import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relativeTime';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MIN = 60_000;

describe('formatRelativeTime', () => {
  it('says "Только что" under a minute (and for a time slightly ahead)', () => {
    expect(formatRelativeTime(ago(0), now)).toBe('Только что');
    expect(formatRelativeTime(ago(59_999), now)).toBe('Только что');
    expect(formatRelativeTime(ago(-5_000), now)).toBe('Только что');
  });
  it('counts minutes, hours and days', () => {
    expect(formatRelativeTime(ago(MIN), now)).toBe('1 мин. назад');
    expect(formatRelativeTime(ago(59 * MIN + 59_000), now)).toBe('59 мин. назад');
    expect(formatRelativeTime(ago(60 * MIN), now)).toBe('1 ч. назад');
    expect(formatRelativeTime(ago(23 * 60 * MIN + 59 * MIN), now)).toBe('23 ч. назад');
    expect(formatRelativeTime(ago(24 * 60 * MIN), now)).toBe('1 дн. назад');
    expect(formatRelativeTime(ago(7 * 24 * 60 * MIN - 1), now)).toBe('6 дн. назад');
  });
  it('shows dd.mm.yyyy from 7 days on', () => {
    expect(formatRelativeTime(new Date(2026, 0, 5, 12), now)).toBe('05.01.2026');
  });
  it('handles empty and invalid values', () => {
    expect(formatRelativeTime(null, now)).toBe('Никогда');
    expect(formatRelativeTime(undefined, now)).toBe('Никогда');
    expect(formatRelativeTime('', now)).toBe('Никогда');
    expect(formatRelativeTime('вчера', now)).toBe('Неверная дата');
  });
});
