import { z } from 'zod';
import { safeText } from './common.js';

/**
 * Sign-in (issue 33): the ways in, the journal of every sign-in and the admin's setting
 * 'Только вход через SSO'.
 */

/** How someone signed in: the platform's password, the directory's (LDAP bind), or the identity provider. */
export const SIGN_IN_METHODS = ['password', 'ldap', 'oidc'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  password: 'Пароль платформы',
  ldap: 'Пароль Active Directory',
  oidc: 'Корпоративный аккаунт',
};

/** Why a sign-in failed, as the journal keeps it. */
export const SIGN_IN_FAILURES = [
  'wrong_password',
  'unknown_login',
  'sso_only',
  'directory_refused',
  'directory_unavailable',
  'provider_refused',
  'provider_unavailable',
  'email_unverified',
  'not_allowed',
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];
export const SIGN_IN_FAILURE_LABELS: Record<SignInFailure, string> = {
  wrong_password: 'Неверный пароль',
  unknown_login: 'Нет сотрудника с таким логином',
  sso_only: 'Пароль платформы отключён: только вход через SSO',
  directory_refused: 'Каталог отклонил пароль',
  directory_unavailable: 'Каталог недоступен',
  provider_refused: 'Провайдер отклонил вход',
  provider_unavailable: 'Провайдер недоступен',
  email_unverified: 'Провайдер не подтвердил email',
  not_allowed: 'Сотрудник не найден, а создание новых отключено',
};

export const signInEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  /** The person it concerns, when the login named one. */
  user_id: z.number().int().nullable(),
  /** Their name as it is now (null: nobody, or the login named no one). */
  name: z.string().nullable(),
  /** The login as typed or as the provider gave it. */
  login: z.string(),
  method: z.enum(SIGN_IN_METHODS),
  success: z.boolean(),
  failure: z.enum(SIGN_IN_FAILURES).nullable(),
  ip: z.string(),
  user_agent: z.string().nullable(),
});
export type SignInEntry = z.infer<typeof signInEntry>;

export const SIGN_INS_PER_PAGE_DEFAULT = 50;
export const SIGN_INS_PER_PAGE_MAX = 200;

/** GET /api/admin/sign-ins */
export const signInsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(SIGN_INS_PER_PAGE_MAX).optional(),
  method: z.enum(SIGN_IN_METHODS).optional(),
  result: z.enum(['success', 'failure']).optional(),
  /** Part of the login or of the person's name. */
  search: safeText(100).optional(),
});
export type SignInsQuery = z.infer<typeof signInsQuery>;
export const signInsResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  items: z.array(signInEntry),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

/** GET and PUT /api/admin/sign-in-settings: the admin's choices and what the server is set up for. */
export const signInSettings = z.object({
  /** 'Только вход через SSO': only accounts created by hand keep the platform's password. */
  sso_only: z.boolean(),
  /** Whether passwords are checked against the directory (LDAP_AUTH), and the provider is set up (OIDC_*). */
  ldap_auth: z.boolean(),
  oidc: z.boolean(),
});
export type SignInSettings = z.infer<typeof signInSettings>;
export const signInSettingsResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string().optional() }),
  data: signInSettings,
});
export const signInSettingsRequest = z.object({ sso_only: z.boolean() });
export type SignInSettingsRequest = z.infer<typeof signInSettingsRequest>;

export const SIGN_IN_SETTINGS_MESSAGES = {
  saved: 'Настройки входа сохранены',
  /** Refused: turning it on with no way in but the platform's password would lock everyone out. */
  noSso: 'Сначала настройте вход через Active Directory (LDAP_AUTH) или корпоративный аккаунт (OIDC_*)',
} as const;
