import { z } from 'zod';

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
export const dbId = z.coerce.number().int().positive().max(MAX_DB_INT);
export const dbInt = z.coerce.number().int().min(0).max(MAX_DB_INT);

export const idParam = z.object({ id: dbId });
