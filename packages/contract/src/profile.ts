import { z } from 'zod';
import { OF_CHARACTERS, formatCount } from './plural.js';

/** GET /api/profile (docs/product.md §Profile): the profile in a top-level `data`. */
export const profile = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.object({ name: z.string() }).nullable(),
  department: z.object({ name: z.string() }).nullable(),
  position: z.string().nullable(),
  email: z.string(),
  /** Whether deadline reminder mails go to the user (issue 16); the manager's digest is not one. */
  reminder_mails: z.boolean(),
  /** The weekly team digest (issue 16) for managers and admins; null for roles that get none. */
  digest_mails: z.boolean().nullable(),
});
export type Profile = z.infer<typeof profile>;
export const profileResponse = z.object({ result: z.object({ success: z.literal(true) }), data: profile });

export const PASSWORD_MIN = 8;
/** POST /api/profile/change-password */
export const changePasswordRequest = z.object({
  old_password: z.string().min(1, 'Заполните все поля пароля').max(200),
  new_password: z.string().min(1, 'Заполните все поля пароля').max(200),
  new_password_confirmation: z.string().min(1, 'Заполните все поля пароля').max(200),
});

/**
 * POST /api/profile/set-password: the user's own password instead of one an administrator mailed
 * (check-auth's `must_change_password`); the old one is not asked for, the session proves it.
 */
export const setPasswordRequest = z.object({
  new_password: z.string().min(1, 'Заполните все поля пароля').max(200),
  new_password_confirmation: z.string().min(1, 'Заполните все поля пароля').max(200),
});
export type SetPasswordRequest = z.infer<typeof setPasswordRequest>;

export const REMINDER_MAILS_MESSAGE = 'Укажите, присылать ли напоминания о сроках: да или нет';
/** PUT /api/profile/preferences */
export const DIGEST_MAILS_MESSAGE = 'Укажите, присылать ли еженедельную сводку: да или нет';
export const DIGEST_NOT_FOR_ROLE = 'Еженедельная сводка приходит только руководителям и администраторам';
/** PUT /api/profile/preferences (`digest_mails` only for managers and admins) */
export const profilePreferencesRequest = z.object({
  reminder_mails: z.boolean({ error: REMINDER_MAILS_MESSAGE }),
  digest_mails: z.boolean({ error: DIGEST_MAILS_MESSAGE }).optional(),
});
export type ProfilePreferencesChange = z.infer<typeof profilePreferencesRequest>;
export const profilePreferences = z.object({ reminder_mails: z.boolean(), digest_mails: z.boolean().nullable() });
export type ProfilePreferences = z.infer<typeof profilePreferences>;
export const profilePreferencesResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string().optional() }),
  data: profilePreferences,
});

export const PROFILE_MESSAGES = {
  changed: 'Пароль успешно изменён',
  wrongOld: 'Неверный текущий пароль',
  mismatch: 'Подтверждение пароля не совпадает',
  tooShort: `Новый пароль должен содержать не менее ${formatCount(PASSWORD_MIN, OF_CHARACTERS)}`,
  sameAsOld: 'Новый пароль должен отличаться от старого',
  sameAsLogin: 'Пароль не должен совпадать с логином',
  tooMany: 'Слишком много попыток. Попробуйте через минуту.',
  preferencesSaved: 'Настройки сохранены',
  alreadySet: 'Пароль уже задан. Сменить его можно в профиле',
} as const;

export type NewPasswordField = 'new_password' | 'new_password_confirmation';

/**
 * The rules of a new password, wherever it is set (the profile's change, the own password after a
 * mailed one), on the server and in the forms: the confirmation matches, at least PASSWORD_MIN
 * characters, not the login nor its mailbox part. Differing from the old one needs its hash: the
 * server checks that.
 */
export function newPasswordProblem(
  input: { new_password: string; new_password_confirmation: string },
  login: string,
): { message: string; field: NewPasswordField } | null {
  const P = PROFILE_MESSAGES;
  if (input.new_password !== input.new_password_confirmation) {
    return { message: P.mismatch, field: 'new_password_confirmation' };
  }
  if (input.new_password.length < PASSWORD_MIN) return { message: P.tooShort, field: 'new_password' };
  const typed = input.new_password.toLowerCase();
  const address = login.toLowerCase();
  if (address !== '' && (typed === address || typed === address.split('@')[0])) {
    return { message: P.sameAsLogin, field: 'new_password' };
  }
  return null;
}
