/** Minimum length of the mailbox part and of the password (docs/product.md §Sign-in). */
export const MIN_CREDENTIAL_LENGTH = 2;

export const TEXT_FILL_IN = 'Заполните почту и пароль';
export const TEXT_BAD_CREDENTIALS = 'Неверный логин или пароль';
export const TEXT_SIGNED_IN = 'Вы успешно авторизованы';

/**
 * The mailbox part the user typed: trimmed, and with the fixed suffix stripped when the user
 * typed it too ('ivanov@company.ru' → 'ivanov'). The comparison ignores case.
 */
export function mailboxPart(typed: string, suffix: string): string {
  const text = typed.trim();
  if (!suffix) return text;
  const at = text.toLowerCase().lastIndexOf(suffix.toLowerCase());
  if (at >= 0 && at + suffix.length === text.length) return text.slice(0, at).trim();
  return text;
}

/** The login sent to the server: the mailbox part plus the fixed suffix. */
export function buildLogin(typed: string, suffix: string): string {
  return mailboxPart(typed, suffix) + suffix;
}

export interface CredentialProblems {
  mailbox: boolean;
  password: boolean;
}

/** Which fields are too short; null when both are fine. */
export function credentialProblems(typed: string, password: string, suffix: string): CredentialProblems | null {
  const mailbox = mailboxPart(typed, suffix).length < MIN_CREDENTIAL_LENGTH;
  const pass = password.length < MIN_CREDENTIAL_LENGTH;
  return mailbox || pass ? { mailbox, password: pass } : null;
}
