import { describe, expect, it } from 'vitest';
import { courseDetail, analytic } from './fixtures';
import {
  canViewAnalytics,
  clampPercent,
  courseDatesText,
  employeeInitials,
  formatDate,
  itemTone,
  lastActivityText,
  matchesEmployee,
  moduleDone,
  shownCount,
  shownGroups,
  toggleFilter,
} from './logic';

const names = (groups: ReturnType<typeof shownGroups>) => groups.map((g) => [g.key, g.items.map((e) => e.id)]);

describe('analytics rules', () => {
  it('toggles a single filter: another replaces it, the active one clears it', () => {
    expect(toggleFilter(null, 'overdue')).toBe('overdue');
    expect(toggleFilter('overdue', 'in_order')).toBe('in_order');
    expect(toggleFilter('in_order', 'in_order')).toBeNull();
  });

  it('shows all three groups without a filter, else the chosen one', () => {
    const data = analytic();
    expect(names(shownGroups(data, null, ''))).toEqual([
      ['overdue', [11]],
      ['almost_overdue', [12]],
      ['in_order', [13, 14, 15]],
    ]);
    expect(names(shownGroups(data, 'almost_overdue', ''))).toEqual([['almost_overdue', [12]]]);
    expect(shownCount(shownGroups(data, null, ''))).toBe(5);
  });

  it('searches names case-insensitively as a substring and drops empty groups', () => {
    const data = analytic();
    expect(names(shownGroups(data, null, 'МАР'))).toEqual([
      ['overdue', [11]],
      ['in_order', [15]],
    ]);
    expect(names(shownGroups(data, 'almost_overdue', 'мар'))).toEqual([]);
    expect(matchesEmployee('  волк ', { name: 'Волков Дмитрий' })).toBe(true);
    expect(matchesEmployee('user12', { name: 'Волков Дмитрий' })).toBe(false);
  });

  it('clamps ring values to 0–100', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(42)).toBe(42);
    expect(clampPercent(180)).toBe(100);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(null)).toBe(0);
  });

  it('writes last activity as relative time', () => {
    const now = new Date('2026-03-20T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    expect(lastActivityText(ago(30_000), now)).toBe('Только что');
    expect(lastActivityText(ago(5 * 60_000), now)).toBe('5 мин. назад');
    expect(lastActivityText(ago(3 * 3_600_000), now)).toBe('3 ч. назад');
    expect(lastActivityText(ago(2 * 86_400_000), now)).toBe('2 дн. назад');
    expect(lastActivityText('2026-03-01T12:00:00Z', now)).toBe('01.03.2026');
    expect(lastActivityText(null, now)).toBe('Никогда');
    expect(lastActivityText('', now)).toBe('Никогда');
    expect(lastActivityText('вчера', now)).toBe('Неверная дата');
  });

  it('takes initials from the first and last name', () => {
    expect(employeeInitials({ first_name: 'мария', last_name: 'кузнецова', name: 'x' })).toBe('МК');
    expect(employeeInitials({ first_name: '', last_name: '', name: 'Ёж' })).toBe('Ё');
  });

  it('writes the course dates: started, then completed or the deadline', () => {
    expect(courseDatesText(courseDetail)).toBe('Начат: 10.01.2026 | Срок до: 01.03.2026');
    expect(courseDatesText({ ...courseDetail, completed_at: '2026-02-02T09:00:00Z' })).toBe(
      'Начат: 10.01.2026 | Завершен: 02.02.2026',
    );
    expect(courseDatesText({ ...courseDetail, deadline: null })).toBe('Начат: 10.01.2026');
    expect(courseDatesText({ started_at: null, completed_at: null, deadline: null })).toBe('');
  });

  it("writes dates as the company's calendar days, the days the server writes on the card", () => {
    // 22:30 UTC is already the next day in Moscow and still the same day in New York.
    const late = { started_at: null, completed_at: null, deadline: '2026-03-12T22:30:00.000Z' };
    expect(courseDatesText(late, 'Europe/Moscow')).toBe('Срок до: 13.03.2026');
    expect(courseDatesText(late, 'America/New_York')).toBe('Срок до: 12.03.2026');
    expect(formatDate('2026-03-12T21:00:00.000Z', 'Europe/Moscow')).toBe('13.03.2026');
    expect(formatDate('2026-03-12T20:59:59.000Z', 'Europe/Moscow')).toBe('12.03.2026');
  });

  it('marks finished modules and styles item statuses', () => {
    expect(moduleDone({ items_completed: 2, items_total: 2 })).toBe(true);
    expect(moduleDone({ items_completed: 1, items_total: 2 })).toBe(false);
    expect(moduleDone({ items_completed: 0, items_total: 0 })).toBe(false);
    expect(itemTone('completed')).toMatchObject({ color: 'green', icon: 'check' });
    expect(itemTone('failed')).toMatchObject({ color: 'red', icon: 'cross' });
    expect(itemTone('in_progress').icon).toBe('none');
    expect(itemTone('not_started').icon).toBe('none');
  });

  it('is for users with the analytics permission', () => {
    expect(canViewAnalytics({ permissions: ['analytics.view'] })).toBe(true);
    expect(canViewAnalytics({ permissions: ['learning', 'profile'] })).toBe(false);
    expect(canViewAnalytics(undefined)).toBe(false);
  });
});
