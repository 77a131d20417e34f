import { describe, expect, it } from 'vitest';
import { buildLogin, credentialProblems, mailboxPart } from './login';

describe('sign-in helpers', () => {
  const suffix = '@company.ru';

  it('appends the fixed suffix to the mailbox part', () => {
    expect(buildLogin('ivanov', suffix)).toBe('ivanov@company.ru');
    expect(buildLogin('  ivanov ', suffix)).toBe('ivanov@company.ru');
  });

  it('strips the suffix first when the user typed it (any case)', () => {
    expect(mailboxPart('ivanov@company.ru', suffix)).toBe('ivanov');
    expect(buildLogin('ivanov@company.ru', suffix)).toBe('ivanov@company.ru');
    expect(buildLogin('Ivanov@COMPANY.RU', suffix)).toBe('Ivanov@company.ru');
  });

  it('reports fields shorter than 2 characters', () => {
    expect(credentialProblems('i', 'secret', suffix)).toEqual({ mailbox: true, password: false });
    expect(credentialProblems('ivanov', 's', suffix)).toEqual({ mailbox: false, password: true });
    expect(credentialProblems('i@company.ru', 'secret', suffix)).toEqual({ mailbox: true, password: false });
    expect(credentialProblems('iv', 'se', suffix)).toBeNull();
  });
});
