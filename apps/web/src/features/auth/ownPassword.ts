import { newPasswordProblem, PROFILE_MESSAGES, type NewPasswordField } from '@lms/contract';

/** The own-password screen (issue 30): shown after a sign-in with a password an administrator mailed. */
export const OWN_PASSWORD_TEXTS = {
  title: 'Придумайте свой пароль',
  subtitle: 'Вы вошли с паролем из письма. Чтобы продолжить, задайте собственный пароль.',
  account: 'Учётная запись',
  newPassword: 'Новый пароль',
  rules: 'Не менее 8 символов, не совпадает с логином и паролем из письма',
  confirmation: 'Подтверждение пароля',
  submit: 'Сохранить пароль',
  saving: 'Сохранение...',
  fillAll: 'Заполните все поля пароля',
  saved: PROFILE_MESSAGES.changed,
  failed: 'Ошибка при сохранении пароля',
  logout: 'Выйти из аккаунта',
} as const;

export interface OwnPasswordForm {
  new_password: string;
  new_password_confirmation: string;
}

export const EMPTY_OWN_PASSWORD: OwnPasswordForm = { new_password: '', new_password_confirmation: '' };

/**
 * The checks before sending: every empty field at once ('Заполните все поля пароля'), then the
 * rules of any new password (contract `newPasswordProblem`: the profile's and the server's). That
 * it differs from the mailed one only the server can tell.
 */
export function ownPasswordProblem(
  form: OwnPasswordForm,
  login: string,
): { message: string; fields: NewPasswordField[] } | null {
  const empty = (Object.keys(form) as NewPasswordField[]).filter((field) => form[field] === '');
  if (empty.length > 0) return { message: OWN_PASSWORD_TEXTS.fillAll, fields: empty };
  const problem = newPasswordProblem(form, login);
  return problem ? { message: problem.message, fields: [problem.field] } : null;
}
