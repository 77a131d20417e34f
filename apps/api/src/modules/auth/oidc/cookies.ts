import { z } from 'zod';
import { hmac, safeEqual } from '../../../platform/tokens.js';

/**
 * The two cookies of the OpenID Connect sign-in, signed with the app key (HMAC, like the CSRF
 * tokens of platform/security.ts): nothing about a sign-in in progress is kept on the server, so
 * any process behind a load balancer can take the callback. Each value is `body.mac`, the MAC over
 * a purpose and the body, so a value made for one use never passes for another.
 */

/** The sign-in in progress: until the provider sends the browser back (path: the callback only). */
export const FLOW_COOKIE = 'lms_oidc';
/** The ID token of an OpenID Connect session, for the provider's logout (path: /api/logout only). */
export const LOGOUT_COOKIE = 'lms_oidc_logout';

function seal(secret: string, purpose: string, body: string): string {
  return `${body}.${hmac(secret, `${purpose}|${body}`)}`;
}

function unseal(secret: string, purpose: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const body = value.slice(0, dot);
  return safeEqual(value.slice(dot + 1), hmac(secret, `${purpose}|${body}`)) ? body : undefined;
}

/** What the callback checks the provider's answer against, and what it does after. */
export const flowState = z.object({
  state: z.string(),
  nonce: z.string(),
  /** The PKCE verifier: only its hash went to the provider. */
  verifier: z.string(),
  /** A path of this site (contract `sameSitePath`), checked when the sign-in started. */
  returnTo: z.string(),
  remember: z.boolean(),
  /** Epoch milliseconds of the app's clock after which the sign-in has to start again. */
  expiresAt: z.number(),
});
export type FlowState = z.infer<typeof flowState>;

export function sealFlow(secret: string, flow: FlowState): string {
  return seal(secret, 'oidc-flow', Buffer.from(JSON.stringify(flow)).toString('base64url'));
}

/** The flow of a cookie, or undefined when it is missing, altered or not one. */
export function openFlow(secret: string, value: string | undefined): FlowState | undefined {
  const body = unseal(secret, 'oidc-flow', value);
  if (body === undefined) return undefined;
  try {
    const parsed = flowState.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ID token (itself base64url with dots) bound to the session token it came with: the MAC covers
 * both, so after a later password sign-in in the same browser the old hint is simply ignored.
 */
export function sealLogoutHint(secret: string, sessionToken: string, idToken: string): string {
  return seal(secret, `oidc-logout|${sessionToken}`, idToken);
}

export function openLogoutHint(secret: string, sessionToken: string, value: string | undefined): string | undefined {
  return unseal(secret, `oidc-logout|${sessionToken}`, value);
}
