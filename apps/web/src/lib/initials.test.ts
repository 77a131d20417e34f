import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of the first two words, upper-cased', () => {
    expect(initials('Иванов Иван Иванович')).toBe('ИИ');
    expect(initials('  петрова   мария ')).toBe('ПМ');
  });
  it('copes with one word and with an empty name', () => {
    expect(initials('Администратор')).toBe('А');
    expect(initials('')).toBe('');
    expect(initials(null)).toBe('');
  });
});
