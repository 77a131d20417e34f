import { z } from 'zod';
import { safeText } from './common.js';

export const roleCodes = ['admin', 'author', 'manager', 'learner'] as const;
export const roleCode = z.enum(roleCodes);
export type RoleCode = z.infer<typeof roleCode>;

/** Russian role labels (roles_ru), as seeded; the role table is not editable. */
export const roleLabels: Record<RoleCode, string> = {
  admin: 'Администратор',
  author: 'Автор курсов',
  manager: 'Руководитель',
  learner: 'Ученик',
};

export const permissions = [
  'learning',
  'profile',
  'analytics.view',
  'catalogue.manage',
  'constructor.manage',
  'settings.manage',
] as const;
export type Permission = (typeof permissions)[number];

/** GET /api/check-auth. A guest gets `authenticated: false` and empty fields. */
export const checkAuthResponse = z.object({
  authenticated: z.boolean(),
  id: z.number().int().nullable(),
  name: z.string(),
  /** The parts of the name, for the avatar's initials (people.ts). */
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: roleCode.nullable(),
  roles_ru: z.string(),
  permissions: z.array(z.string()),
  /**
   * The password came by mail from an administrator (a new account, an admin reset): until the user
   * sets their own (POST /api/profile/set-password) every call but the public ones answers 403.
   */
  must_change_password: z.boolean(),
});
export type AuthUser = z.infer<typeof checkAuthResponse>;

/** The answer of check-auth for a visitor who is not signed in, and the client's session until it is. */
export const guestUser: AuthUser = {
  authenticated: false,
  id: null,
  name: '',
  first_name: '',
  last_name: '',
  email: '',
  role: null,
  roles_ru: '',
  permissions: [],
  must_change_password: false,
};

/** POST /login */
export const loginRequest = z.object({
  login: safeText(254, { required: 'Заполните почту и пароль' }),
  // The password is a secret: any character the user chose is kept (it is never shown or logged).
  password: z.string().min(1, 'Заполните почту и пароль').max(1024),
  remember: z.boolean().default(false),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string() }),
  user: checkAuthResponse,
});
export type LoginResponse = z.infer<typeof loginResponse>;
