import { z } from 'zod';
import { successResult } from './common.js';

/**
 * Sign-in through the company's OpenID Connect provider (issue 33). The browser goes to
 * `OIDC_START_PATH` (a full-page navigation), the provider sends it back to the callback, and the
 * callback answers with a redirect: to the page the user was going to, or to the sign-in page with
 * `?sso_error=<code>`, whose Russian text is `OIDC_ERROR_MESSAGES[code]`. Only codes travel in the
 * address, so nobody can make the sign-in page show a text of their own with a crafted link.
 */

export const OIDC_START_PATH = '/api/auth/oidc/start';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
/** The sign-in page's query parameter that carries the refusal's code. */
export const OIDC_ERROR_PARAM = 'sso_error';

export const OIDC_ERROR_MESSAGES = {
  off: 'Вход через корпоративный аккаунт не настроен.',
  bad_return: 'Некорректный адрес возврата после входа. Откройте страницу входа заново.',
  expired: 'Время входа истекло или вход был начат в другой вкладке. Попробуйте ещё раз.',
  denied: 'Вход через корпоративный аккаунт отменён.',
  invalid:
    'Не удалось подтвердить вход через корпоративный аккаунт. Попробуйте ещё раз; если ошибка повторится, обратитесь к администратору.',
  unavailable: 'Сервис корпоративного входа недоступен. Попробуйте позже или войдите по паролю.',
  no_email: 'Корпоративный аккаунт не сообщил адрес почты. Обратитесь к администратору.',
  email_unverified: 'Адрес почты в корпоративном аккаунте не подтверждён, войти с ним нельзя.',
  unknown_user: 'Сотрудник с такой почтой не найден на платформе. Обратитесь к администратору.',
  foreign_domain: 'Учётные записи создаются только для адресов корпоративной почты. Обратитесь к администратору.',
  incomplete: 'Корпоративный аккаунт не сообщил имя и фамилию. Обратитесь к администратору.',
  disabled: 'Учётная запись отключена. Обратитесь к администратору.',
  too_many: 'Слишком много попыток входа. Попробуйте позже.',
  failed: 'Не удалось войти через корпоративный аккаунт. Попробуйте позже.',
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERROR_MESSAGES;

/** The text for a refusal's code; an unknown code (an old or edited link) gets the general one. */
export function oidcErrorMessage(code: string): string {
  return Object.hasOwn(OIDC_ERROR_MESSAGES, code)
    ? OIDC_ERROR_MESSAGES[code as OidcErrorCode]
    : OIDC_ERROR_MESSAGES.failed;
}

/** A dummy origin: a path resolved against it must stay on it to be a path of this site. */
const HERE = 'http://lms.invalid';

/**
 * Where to go after signing in, when it is a path of this site, normalized (percent-encoded as a
 * Location header needs it); undefined otherwise. Refused: anything not starting with one '/', such
 * as '//evil.ru' or '/\evil.ru' (browsers read both as another host), a scheme ('https:…',
 * 'javascript:…'), control characters (a tab or line feed is dropped by URL parsers, so '/\t/evil.ru'
 * would become '//evil.ru'), and whatever else resolves to another origin.
 */
export function sameSitePath(value: string): string | undefined {
  if (value.length > 2000 || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return undefined;
  }
  if (url.origin !== HERE) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The start address of the corporate sign-in, going back to `returnTo` and keeping 'Запомнить меня'. */
export function oidcStartHref(returnTo: string | undefined, remember: boolean): string {
  const query = new URLSearchParams();
  const path = returnTo === undefined ? undefined : sameSitePath(returnTo);
  if (path && path !== '/') query.set('return', path);
  if (remember) query.set('remember', '1');
  const text = query.toString();
  return text ? `${OIDC_START_PATH}?${text}` : OIDC_START_PATH;
}

/** The query of the start route. */
export const oidcStartQuery = z.object({
  return: z.string().max(4000).optional(),
  remember: z.enum(['0', '1']).optional(),
});

/**
 * POST /api/logout. `redirect`: the provider's end-session address, when the session was opened
 * through it and it has one; the client goes there (the provider then sends it to /login).
 */
export const logoutResponse = z.object({
  result: successResult,
  redirect: z.string().url().optional(),
});
export type LogoutResponse = z.infer<typeof logoutResponse>;
