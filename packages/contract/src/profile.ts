import { z } from 'zod';
import { OF_CHARACTERS, formatCount } from './plural.js';

/** GET /api/profile (spec 02 §3 "Profile"): the profile in a top-level `data`. */
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
} as const;
