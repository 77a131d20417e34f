import { describe, expect, it } from 'vitest';
import { DAY_FORMS, formatCount, pluralRu } from './plural';

describe('pluralRu', () => {
  it.each([
    [1, 'день'],
    [2, 'дня'],
    [4, 'дня'],
    [5, 'дней'],
    [11, 'дней'],
    [12, 'дней'],
    [14, 'дней'],
    [20, 'дней'],
    [21, 'день'],
    [22, 'дня'],
    [25, 'дней'],
    [101, 'день'],
    [111, 'дней'],
    [0, 'дней'],
  ])('%i → %s', (n, form) => {
    expect(pluralRu(n, DAY_FORMS)).toBe(form);
  });

  it('formats a count with its noun', () => {
    expect(formatCount(3, ['курс', 'курса', 'курсов'])).toBe('3 курса');
    expect(formatCount(1.5, DAY_FORMS)).toBe('1.5 дня');
  });
});
