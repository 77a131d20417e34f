import type { PinRequest, RecoveryRequest } from '@lms/contract';
import { http } from '../../app/http';
import { serverMessage } from '../../lib/errors';

/** Length of the recovery code (spec 01 §5, §9). */
export const CODE_LENGTH = 6;

export const TEXT_CHECK_FAILED = 'Ошибка проверки кода';
export const TEXT_RESET_DONE = 'Новый пароль отправлен на email';

/**
 * The address sent to the server (spec 01 §5): text that contains '@' is used as it stands,
 * otherwise the fixed domain suffix is appended to the mailbox part.
 */
export function recoveryEmail(typed: string, suffix: string): string {
  const text = typed.trim();
  return text.includes('@') ? text : text + suffix;
}

/** Only the digits of a text, at most CODE_LENGTH of them (typing and pasting, spec 01 §5). */
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

/** POST /api/password/recovery-request; the answer is ignored (spec 01 §7). */
export async function requestRecovery(email: string): Promise<void> {
  const body: RecoveryRequest = { email };
  await http.post('/api/password/recovery-request', body);
}

/** Outcome of the code step: the text to show and whether it was a success. */
export interface CodeOutcome {
  success: boolean;
  message: string;
}

function resultOf(data: unknown): { success: unknown; message: unknown } {
  if (typeof data !== 'object' || data === null || !('result' in data)) return { success: undefined, message: '' };
  const result: unknown = data.result;
  if (typeof result !== 'object' || result === null) return { success: undefined, message: '' };
  return {
    success: 'success' in result ? result.success : undefined,
    message: 'message' in result ? result.message : undefined,
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * The code step (spec 01 §4): POST /api/password/check-pin first and, only if it succeeded,
 * POST /api/password/reset-by-pin. Success gives the server's message (default
 * 'Новый пароль отправлен на email'); a failure gives result.message or 'Ошибка проверки кода'.
 * Never throws.
 */
export async function confirmCode(email: string, pinCode: string): Promise<CodeOutcome> {
  const body: PinRequest = { email, pin_code: pinCode };
  try {
    const check = resultOf((await http.post<unknown>('/api/password/check-pin', body)).data);
    if (check.success === false) return { success: false, message: text(check.message) ?? TEXT_CHECK_FAILED };
    const reset = resultOf((await http.post<unknown>('/api/password/reset-by-pin', body)).data);
    if (reset.success === false) return { success: false, message: text(reset.message) ?? TEXT_CHECK_FAILED };
    return { success: true, message: text(reset.message) ?? TEXT_RESET_DONE };
  } catch (error) {
    return { success: false, message: serverMessage(error) ?? TEXT_CHECK_FAILED };
  }
}
