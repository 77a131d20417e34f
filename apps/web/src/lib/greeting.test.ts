import { describe, expect, it } from 'vitest';
import { greeting, greetingName } from './greeting';

describe('greeting', () => {
  it('takes the second word of the name', () => {
    expect(greetingName('Смирнов Алексей')).toBe('Алексей');
    expect(greetingName('  Петрова   Мария Сергеевна ')).toBe('Мария');
    expect(greeting('Смирнов Алексей')).toBe('Алексей, добрый день!');
  });
  it('falls back to the only word, or no name', () => {
    expect(greeting('Администратор')).toBe('Администратор, добрый день!');
    expect(greeting('')).toBe('Добрый день!');
    expect(greeting(undefined)).toBe('Добрый день!');
  });
});
