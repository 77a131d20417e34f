import { UnsuccessfulAnswer, resultMessage } from './errors';

/**
 * A response schema of `@lms/contract` (zod), or a shape of `lib/shape.ts` for the first screens:
 * only its parse is used here, so the web client does not depend on zod itself.
 */
export interface Schema<T> {
  parse(data: unknown): T;
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/**
 * The body of a 2xx answer checked against its contract schema. An answer that says
 * `result.success: false` becomes an `UnsuccessfulAnswer` with the server's message; any other
 * shape the contract does not allow throws (the caller shows its load or save error).
 */
export function parseAnswer<T>(schema: Schema<T>, data: unknown): T {
  if (isUnsuccessful(data)) throw new UnsuccessfulAnswer(resultMessage(data));
  return schema.parse(data);
}

function isUnsuccessful(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || !('result' in data)) return false;
  const result: unknown = data.result;
  return typeof result === 'object' && result !== null && 'success' in result && result.success === false;
}

/** The success message of an answer (`result.message`), else the given default. */
export function successMessage(data: unknown, fallback: string): string {
  return resultMessage(data) ?? fallback;
}
