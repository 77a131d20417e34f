import { isAxiosError } from 'axios';

/** HTTP status of a failed call, or undefined when no answer came back (network failure, time-out). */
export function errorStatus(error: unknown): number | undefined {
  return isAxiosError(error) ? error.response?.status : undefined;
}

/** True when the call failed without any answer from the server. */
export function isNetworkError(error: unknown): boolean {
  return isAxiosError(error) && error.response === undefined;
}

/** `result.message` of an error answer (`{ result: { success: false, message } }`), if there is one. */
export function serverMessage(error: unknown): string | undefined {
  if (!isAxiosError(error)) return undefined;
  const data: unknown = error.response?.data;
  if (typeof data !== 'object' || data === null || !('result' in data)) return undefined;
  const result: unknown = data.result;
  if (typeof result !== 'object' || result === null || !('message' in result)) return undefined;
  const message: unknown = result.message;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}
