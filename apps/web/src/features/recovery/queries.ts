import type { PinRequest, RecoveryRequest } from '@lms/contract';
import { useMutation } from '@tanstack/react-query';
import { isNetworkError, resultMessage, serverMessage } from '../../lib/errors';
import { http } from '../../lib/http';
import { TEXT_CHECK_FAILED, TEXT_RESET_DONE, type CodeOutcome } from './recovery';

/**
 * POST /api/password/recovery-request. The answer is ignored (docs/product.md §Recovery): any answer from the
 * server (422, 429, ...) lets the flow go on; only a call with no answer at all fails.
 */
export async function requestRecovery(email: string): Promise<void> {
  const body: RecoveryRequest = { email };
  try {
    await http.post('/api/password/recovery-request', body);
  } catch (error) {
    if (isNetworkError(error)) throw error;
  }
}

export function useRequestRecovery() {
  return useMutation({ mutationFn: requestRecovery });
}

function succeeded(data: unknown): boolean | undefined {
  if (typeof data !== 'object' || data === null || !('result' in data)) return undefined;
  const result: unknown = data.result;
  if (typeof result !== 'object' || result === null || !('success' in result)) return undefined;
  return typeof result.success === 'boolean' ? result.success : undefined;
}

/**
 * The code step (docs/product.md §Recovery): POST /api/password/check-pin first and, only if it succeeded,
 * POST /api/password/reset-by-pin. Success gives the server's message (default
 * 'Новый пароль отправлен на email'); a failure gives result.message or 'Ошибка проверки кода'.
 * Never throws.
 */
export async function confirmCode({ email, pin_code }: PinRequest): Promise<CodeOutcome> {
  const body: PinRequest = { email, pin_code };
  try {
    const check = (await http.post<unknown>('/api/password/check-pin', body)).data;
    if (succeeded(check) === false) return { success: false, message: resultMessage(check) ?? TEXT_CHECK_FAILED };
    const reset = (await http.post<unknown>('/api/password/reset-by-pin', body)).data;
    if (succeeded(reset) === false) return { success: false, message: resultMessage(reset) ?? TEXT_CHECK_FAILED };
    return { success: true, message: resultMessage(reset) ?? TEXT_RESET_DONE };
  } catch (error) {
    return { success: false, message: serverMessage(error) ?? TEXT_CHECK_FAILED };
  }
}

export function useConfirmCode() {
  return useMutation({ mutationFn: confirmCode });
}
