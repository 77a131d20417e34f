/** Length of the recovery code (docs/product.md §Recovery). */
export const CODE_LENGTH = 6;

export const TEXT_CHECK_FAILED = 'Ошибка проверки кода';
export const TEXT_RESET_DONE = 'Новый пароль отправлен на email';

/**
 * The address sent to the server (docs/product.md §Recovery): text that contains '@' is used as it stands,
 * otherwise the fixed domain suffix is appended to the mailbox part.
 */
export function recoveryEmail(typed: string, suffix: string): string {
  const text = typed.trim();
  return text.includes('@') ? text : text + suffix;
}

/** Only the digits of a text, at most CODE_LENGTH of them (typing and pasting, docs/product.md §Recovery). */
export function codeDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

/** Navigation state of /recovery/confirm: the address the code was sent to. */
export interface ConfirmState {
  email: string;
}

export function confirmEmail(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('email' in state)) return null;
  const email: unknown = state.email;
  return typeof email === 'string' && email.trim() !== '' ? email : null;
}

/** Outcome of the code step: the text to show and whether it was a success. */
export interface CodeOutcome {
  success: boolean;
  message: string;
}
