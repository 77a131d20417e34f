import { TEXT_NETWORK_ERROR, errorStatus, isNetworkError, serverMessage } from '../../lib/errors';
import { TEXT_BAD_CREDENTIALS } from './login';

/**
 * The toast text of a failed sign-in: 422 (wrong login or password) → 'Неверный логин или пароль';
 * another answer with result.message (e.g. 429 too many attempts) → that message; no answer at
 * all → a network error text.
 */
export function loginErrorText(error: unknown): string {
  if (isNetworkError(error)) return TEXT_NETWORK_ERROR;
  const status = errorStatus(error);
  if (status === 422 || status === 401) return TEXT_BAD_CREDENTIALS;
  return serverMessage(error) ?? TEXT_BAD_CREDENTIALS;
}
