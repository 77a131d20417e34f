import { isHttpError } from './http';

/** 'Ошибка сети. Попробуйте позже.': a call that got no answer at all (docs/product.md §HTTP client). */
export const TEXT_NETWORK_ERROR = 'Ошибка сети. Попробуйте позже.';

/** A 2xx answer whose `result.success` is false; it carries the server's `result.message`. */
export class UnsuccessfulAnswer extends Error {
  constructor(readonly serverMessage: string | undefined) {
    super(serverMessage ?? 'unsuccessful answer');
  }
}

/** HTTP status of a failed call, or undefined when no answer came back (network failure, time-out). */
export function errorStatus(error: unknown): number | undefined {
  return isHttpError(error) ? error.response?.status : undefined;
}

/** True when the call failed without any answer from the server. */
export function isNetworkError(error: unknown): boolean {
  return isHttpError(error) && error.response === undefined;
}

/** The text of `result.message` in an answer body, if there is one and it is not blank. */
export function resultMessage(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('result' in data)) return undefined;
  const result: unknown = data.result;
  if (typeof result !== 'object' || result === null || !('message' in result)) return undefined;
  const message: unknown = result.message;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

/**
 * `result.message` of an error answer (`{ result: { success: false, message } }`), or of a 2xx
 * answer that said `success: false`, if there is one.
 */
export function serverMessage(error: unknown): string | undefined {
  if (error instanceof UnsuccessfulAnswer) return error.serverMessage;
  if (!isHttpError(error)) return undefined;
  return resultMessage(error.response?.data);
}

/** The server's message of a failed call, else the given default (docs/product.md §HTTP client). */
export function messageOr(error: unknown, fallback: string): string {
  return serverMessage(error) ?? fallback;
}

/** The call was answered 404: what the page is about is not there (or not for this user). */
export function isNotFound(error: unknown): boolean {
  return errorStatus(error) === 404;
}
