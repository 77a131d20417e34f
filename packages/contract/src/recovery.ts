import { z } from 'zod';

const email = z
  .string()
  .trim()
  .min(3, 'Введите адрес электронной почты')
  .max(254)
  .email('Некорректный адрес электронной почты');

/** POST /api/password/recovery-request */
export const recoveryRequest = z.object({ email });
/** POST /api/password/check-pin and /api/password/reset-by-pin */
export const pinRequest = z.object({
  email,
  pin_code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Код должен состоять из 6 цифр'),
});
export type RecoveryRequest = z.infer<typeof recoveryRequest>;
export type PinRequest = z.infer<typeof pinRequest>;
