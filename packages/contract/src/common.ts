import { z } from 'zod';
import { OF_CHARACTERS, formatCount } from './plural.js';

/** Every error answer: `{ result: { success: false, message } }`, plus `errors` for validation (422). */
export const errorResponse = z.object({
  result: z.object({ success: z.literal(false), message: z.string() }),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const successResult = z.object({ success: z.literal(true), message: z.string().optional() });
export const successResponse = z.object({ result: successResult });
export type SuccessResponse = z.infer<typeof successResponse>;

/** Ids and counters fit the databases' 32-bit integers: a larger number is a 4xx, not a database error. */
export const MAX_DB_INT = 2_147_483_647;
export const ID_MESSAGE = 'Некорректный идентификатор';

/**
 * An id in a JSON body: a JSON integer, never a string. Coercion would read '0x1', '1e0', ' 1',
 * '+1' or true as id 1, so that one object had many spellings (and a check by spelling could miss).
 */
export const dbId = z.number({ error: ID_MESSAGE }).int(ID_MESSAGE).positive(ID_MESSAGE).max(MAX_DB_INT, ID_MESSAGE);
export const dbInt = z.number().int().min(0).max(MAX_DB_INT);

/** An id in a path or query string: canonical decimal digits only (no sign, point, exponent or leading zero). */
export const dbIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, ID_MESSAGE)
  .transform(Number)
  .pipe(dbId);

export const idParam = z.object({ id: dbIdParam });

export const UNSAFE_TEXT_MESSAGE = 'Поле содержит недопустимые символы';
// Control characters (C0, DEL, C1) and the bidirectional marks, embeddings, overrides and isolates
// (U+061C, U+200E/F, U+202A–E, U+2066–9), which can make a name read differently from what it is.
// eslint-disable-next-line no-control-regex -- the control characters are exactly what is refused
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/u;
// The same, but tab, line feed and carriage return are allowed in multi-line text.
const MULTI_LINE =
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what is refused
  /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/u;

/**
 * Every name or text a client sends: trimmed, at most `max` characters, `required` (its message)
 * when it may not be empty, and without control or bidirectional-override characters (422 with a
 * Russian message). One line unless `multiline`.
 */
export function safeText(max: number, opts: { required?: string; multiline?: boolean } = {}) {
  const trimmed = z.string().trim();
  return (opts.required ? trimmed.min(1, opts.required) : trimmed)
    .max(max, `Не более ${formatCount(max, OF_CHARACTERS)}`)
    .regex(opts.multiline ? MULTI_LINE : ONE_LINE, UNSAFE_TEXT_MESSAGE);
}
