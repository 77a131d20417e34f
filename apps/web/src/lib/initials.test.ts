import { initials } from '@lms/contract';
import { describe, expect, it } from 'vitest';

describe('initials (the one helper of every avatar, issue 30)', () => {
  it('takes the first letter of the first name, then of the last name, upper-cased', () => {
    expect(initials({ first_name: 'Иван', last_name: 'Петров' })).toBe('ИП');
    expect(initials({ first_name: '  мария ', last_name: 'петрова' })).toBe('МП');
    expect(initials({ first_name: 'John', last_name: 'Smith' })).toBe('JS');
  });

  it('does with one part, falls back to a whole name, and gives nothing for nothing', () => {
    expect(initials({ first_name: 'Мария', last_name: '' })).toBe('М');
    expect(initials({ first_name: '', last_name: '' }, 'администратор')).toBe('А');
    expect(initials(null)).toBe('');
    expect(initials(undefined, '')).toBe('');
  });

  it('keeps a letter made of two code units whole', () => {
    expect(initials({ first_name: '𝔄nna', last_name: 'Berg' })).toBe('𝔄B');
  });
});
