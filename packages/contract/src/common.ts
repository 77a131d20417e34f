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

export const idParam = z.object({ id: z.coerce.number().int().positive() });
