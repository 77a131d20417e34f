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
/**
 * The characters refused in every stored name (and stripped from uploaded file names), one rule for
 * all of them: control characters (C0, DEL, C1), the line and paragraph separators (U+2028/9), the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–E, U+2066–9),
 * which can make a name read differently from what it is (`Отчёт\u202Efdp.exe` shows as an
 * "exe.pdf"), and the zero-width characters (U+200B/C, U+2060, U+FEFF, and U+200D outside an emoji
 * sequence such as 👩‍💻: a joiner may follow a pictograph, its skin tone or its presentation mark, and
 * precede a pictograph), which hide in a name.
 */
export const UNSAFE_IN_LINE =
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what is refused
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]|(?<!\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\ufe0f)\u200d|\u200d(?!\p{Extended_Pictographic})/u;
/** The same in multi-line text, where tab, line feed and carriage return are allowed. */
export const UNSAFE_IN_TEXT =
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what is refused
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]|(?<!\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\ufe0f)\u200d|\u200d(?!\p{Extended_Pictographic})/u;
const UNSAFE_IN_LINE_ALL = new RegExp(UNSAFE_IN_LINE.source, 'gu');

/**
 * A file name as the client's disk had it, made safe to show and store: the characters refused in
 * names removed (not refused: the file is the user's, its name is only a label), trimmed, at most 255
 * characters (whole characters, never half of one); `fallback` when nothing is left.
 */
export function cleanFileName(name: string, fallback: string): string {
  const cleaned = Array.from(name.replace(UNSAFE_IN_LINE_ALL, '').trim()).slice(0, 255).join('').trim();
  return cleaned || fallback;
}

/**
 * Every name or text a client sends: trimmed, at most `max` characters, `required` (its message)
 * when it may not be empty, and without the characters of `UNSAFE_IN_LINE` (422 with a Russian
 * message). One line unless `multiline`.
 */
export function safeText(max: number, opts: { required?: string; multiline?: boolean } = {}) {
  const trimmed = z.string().trim();
  return (opts.required ? trimmed.min(1, opts.required) : trimmed)
    .max(max, `Не более ${formatCount(max, OF_CHARACTERS)}`)
    .refine((text) => !(opts.multiline ? UNSAFE_IN_TEXT : UNSAFE_IN_LINE).test(text), UNSAFE_TEXT_MESSAGE);
}
