import type { Profile } from '@lms/contract';
import { PROFILE_TEXTS as T } from './texts';

/** What the read-only card shows (docs/product.md §Profile defaults). */
export interface ProfileView {
  /** 'Имя Фамилия': first name, then last name. */
  fullName: string;
  role: string;
  department: string;
  position: string;
  email: string;
}

const filled = (text: string | null | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
};

export function profileView(profile: Profile): ProfileView {
  return {
    fullName: [profile.first_name, profile.last_name]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    role: filled(profile.role?.name) ?? T.defaultRole,
    department: filled(profile.department?.name) ?? T.defaultDepartment,
    position: filled(profile.position) ?? T.defaultPosition,
    email: profile.email,
  };
}

/**
 * The green of 'Сменить пароль': a shade of Mantine's green dark enough for white text
 * (5:1, WCAG AA; green.6 gives 2.4:1 and green.9 4.4:1).
 */
export const SUBMIT_GREEN = '#27803a';

/** The three fields of the 'Смена пароля' form. */
export interface PasswordForm {
  old_password: string;
  new_password: string;
  new_password_confirmation: string;
}

export const EMPTY_PASSWORD_FORM: PasswordForm = { old_password: '', new_password: '', new_password_confirmation: '' };

export type PasswordField = keyof PasswordForm;

/** A client check that failed: its message and the fields to mark. */
export interface PasswordProblem {
  message: string;
  fields: PasswordField[];
}

/**
 * The checks before sending (docs/product.md §Profile): all three fields filled, else 'Заполните все поля
 * пароля'; the new password and its confirmation equal, else 'Подтверждение пароля не совпадает'.
 * Any other rule (length, same as old) is the server's.
 */
export function checkPasswordForm(form: PasswordForm): PasswordProblem | null {
  const empty = (Object.keys(form) as PasswordField[]).filter((field) => form[field] === '');
  if (empty.length > 0) return { message: T.fillAll, fields: empty };
  if (form.new_password !== form.new_password_confirmation) {
    return { message: T.mismatch, fields: ['new_password_confirmation'] };
  }
  return null;
}
