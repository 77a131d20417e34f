import { describe, expect, it } from 'vitest';
import { codeFromText } from './CodeInput';
import { codeDigits, confirmEmail, recoveryEmail } from './recovery';

describe('recovery helpers', () => {
  const suffix = '@company.ru';

  it('appends the fixed suffix when the typed text has no "@"', () => {
    expect(recoveryEmail('ivanov', suffix)).toBe('ivanov@company.ru');
    expect(recoveryEmail('  ivanov ', suffix)).toBe('ivanov@company.ru');
  });

  it('uses text with "@" as it stands', () => {
    expect(recoveryEmail('ivanov@company.ru', suffix)).toBe('ivanov@company.ru');
    expect(recoveryEmail('ivanov@other.org', suffix)).toBe('ivanov@other.org');
  });

  it('keeps only digits, at most six', () => {
    expect(codeDigits('12 34-56')).toBe('123456');
    expect(codeDigits('Код: 98765432')).toBe('987654');
    expect(codeDigits('abc')).toBe('');
    expect(codeFromText('4-2')).toEqual(['4', '2', '', '', '', '']);
  });

  it('reads the address from the navigation state', () => {
    expect(confirmEmail({ email: 'a@b.ru' })).toBe('a@b.ru');
    expect(confirmEmail({ email: '  ' })).toBeNull();
    expect(confirmEmail({ email: 5 })).toBeNull();
    expect(confirmEmail(null)).toBeNull();
    expect(confirmEmail(undefined)).toBeNull();
  });
});
