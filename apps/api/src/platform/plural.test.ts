import { formatCount, formatOutOf, pluralRu, safeText } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { teamDigestMail } from './mail/templates.js';

/** Texts the server writes with a number in them take the Russian plural form the number needs. */

const DAYS = ['день', 'дня', 'дней'] as const;

describe('the shared plural rule (packages/contract)', () => {
  it.each([
    [0, 'дней'],
    [1, 'день'],
    [2, 'дня'],
    [4, 'дня'],
    [5, 'дней'],
    [11, 'дней'],
    [12, 'дней'],
    [14, 'дней'],
    [21, 'день'],
    [22, 'дня'],
    [111, 'дней'],
    [112, 'дней'],
    [1001, 'день'],
    [-1, 'день'],
  ])('%i → %s', (n, form) => {
    expect(pluralRu(n, DAYS)).toBe(form);
  });

  it('formats counts and "X/Y" counters', () => {
    expect(formatCount(1.5, DAYS)).toBe('1.5 дня');
    expect(formatOutOf(3, 21, ['лекции', 'лекций', 'лекций'])).toBe('3/21 лекции');
    expect(formatOutOf(3, 5, ['лекции', 'лекций', 'лекций'], ' / ')).toBe('3 / 5 лекций');
  });
});

describe('validation messages with a number', () => {
  it.each([
    [21, 'Не более 21 символа'],
    [22, 'Не более 22 символов'],
    [255, 'Не более 255 символов'],
    [1, 'Не более 1 символа'],
  ])('safeText(%i) → %s', (max, message) => {
    const result = safeText(max).safeParse('я'.repeat(max + 1));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('the weekly digest counts', () => {
  const ctx = { companyName: 'Ромашка', publicUrl: undefined };
  const digest = (overdue: [number, number], almost: [number, number]) =>
    teamDigestMail(ctx, 'boss@example.com', {
      name: 'Ольга',
      companyWide: true,
      overdue: { total: overdue[0], people: overdue[1], first: [] },
      almost: { total: almost[0], people: almost[1], first: [] },
    }).text;

  it.each([
    [[1, 1], [3, 2], 'Просрочено: 1 курс у 1 сотрудника. Почти просрочено: 3 курса у 2 сотрудников.'],
    [[21, 21], [5, 5], 'Просрочено: 21 курс у 21 сотрудника. Почти просрочено: 5 курсов у 5 сотрудников.'],
    [[12, 11], [0, 0], 'Просрочено: 12 курсов у 11 сотрудников. Почти просрочено: нет.'],
    [[0, 0], [2, 1], 'Просрочено: нет. Почти просрочено: 2 курса у 1 сотрудника.'],
  ] as const)('%j overdue, %j almost → %s', (overdue, almost, line) => {
    expect(digest([...overdue], [...almost])).toContain(line);
  });
});
