import {
  OIDC_CALLBACK_PATH,
  OIDC_ERROR_PARAM,
  OIDC_START_PATH,
  oidcStartQuery,
  sameSitePath,
  type OidcErrorCode,
} from '@lms/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../../config.js';
import { isHttps, SESSION_COOKIE, setSessionCookies, siteAddress } from '../../../platform/security.js';
import { REMEMBER_MS } from '../../../platform/sessions.js';
import type { AuthService } from '../service.js';
import { OidcRefusal } from './accounts.js';
import { FLOW_COOKIE, LOGOUT_COOKIE, openFlow, openLogoutHint, sealFlow, sealLogoutHint } from './cookies.js';
import type { OidcProvider } from './provider.js';
import { FLOW_TTL_MS, type OidcSignIn } from './service.js';

const LOGOUT_PATH = '/api/logout';
const LOGIN_PAGE = '/login';

/** Our redirect URI as the provider has it registered: PUBLIC_URL (or the request's address) + the callback. */
const redirectUri = (config: Config, request: FastifyRequest) => `${siteAddress(config, request)}${OIDC_CALLBACK_PATH}`;

/** Cookies of the sign-in: httpOnly, SameSite=Lax (sent on the provider's top-level redirect back), Secure on HTTPS. */
const cookieOptions = (config: Config, request: FastifyRequest, path: string) => ({
  path,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: isHttps(config, request),
});

/** What went wrong, for the log: the error's chain of causes, and a provider's OAuth error code. */
function reasonOf(error: unknown): string | undefined {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const oauth = (e as { error?: unknown }).error;
    parts.push(`${e.name}: ${e.message}${typeof oauth === 'string' ? ` (${oauth})` : ''}`);
  }
  return parts.length > 0 ? parts.join(' ← ') : undefined;
}

/**
 * A refusal ends on the sign-in page with its code (contract OIDC_ERROR_MESSAGES: the Russian text
 * shown there), never with a session and never with a 500: an unexpected error is logged and
 * answered with the general code.
 */
function refuse(request: FastifyRequest, reply: FastifyReply, error: unknown, counts?: RateLimitCounts) {
  let code: OidcErrorCode = 'failed';
  if (error instanceof OidcRefusal) {
    code = error.code;
    // A redirect, not a 429: counted as the limits' refusals are (platform/metrics.ts).
    if (code === 'too_many') counts?.rateLimited(request.routeOptions.url ?? OIDC_CALLBACK_PATH);
    request.log.warn({ code, reason: reasonOf(error.cause) }, 'OpenID Connect sign-in refused');
  } else {
    request.log.error({ err: error }, 'OpenID Connect sign-in failed');
  }
  return toLogin(reply, code);
}

/** Where refusals by a rate limit are counted. */
export interface RateLimitCounts {
  rateLimited(route: string): void;
}

const toLogin = (reply: FastifyReply, code: OidcErrorCode) =>
  reply.redirect(`${LOGIN_PAGE}?${new URLSearchParams({ [OIDC_ERROR_PARAM]: code })}`);

/**
 * The two public steps of the sign-in through the company's provider (issue 33). Both are
 * top-level navigations of the browser and answer with redirects only.
 */
export const oidcRoutes =
  (deps: {
    signIn: OidcSignIn | null;
    auth: AuthService;
    config: Config;
    secret: string;
    counts?: RateLimitCounts;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { signIn, auth, config, secret, counts } = deps;

    app.get(
      OIDC_START_PATH,
      {
        config: { access: 'public', name: 'oidc-start' },
        schema: {
          tags: ['auth'],
          summary: 'Sign in through the company provider: redirects to it (302)',
          querystring: oidcStartQuery,
        },
      },
      async (request, reply) => {
        if (!signIn) return toLogin(reply, 'off');
        const returnTo = request.query.return === undefined ? '/' : sameSitePath(request.query.return);
        if (!returnTo) return toLogin(reply, 'bad_return');
        try {
          const { location, flow } = await signIn.start({
            returnTo,
            remember: request.query.remember === '1',
            redirectUri: redirectUri(config, request),
          });
          reply.setCookie(FLOW_COOKIE, sealFlow(secret, flow), {
            ...cookieOptions(config, request, OIDC_CALLBACK_PATH),
            maxAge: FLOW_TTL_MS / 1000,
          });
          return reply.redirect(location);
        } catch (error) {
          return refuse(request, reply, error, counts);
        }
      },
    );

    app.get(
      OIDC_CALLBACK_PATH,
      {
        config: { access: 'public', name: 'oidc-callback' },
        schema: {
          tags: ['auth'],
          summary: 'The provider sends the browser back here: a session and the page it was going to, or /login',
        },
      },
      async (request, reply) => {
        const flow = openFlow(secret, request.cookies[FLOW_COOKIE]);
        // One use: whatever happens now, a second visit of this address starts nothing.
        reply.clearCookie(FLOW_COOKIE, cookieOptions(config, request, OIDC_CALLBACK_PATH));
        if (!signIn) return toLogin(reply, 'off');
        try {
          const query = new URL(request.url, 'http://callback.invalid').search;
          const result = await signIn.finish({
            flow,
            callbackUrl: new URL(`${redirectUri(config, request)}${query}`),
            ip: request.ip.slice(0, 64),
            userAgent: request.headers['user-agent'] ?? null,
          });
          // As POST /login does: the browser's previous session ends, the new one gets the same cookies.
          const old = request.cookies[SESSION_COOKIE];
          if (old) await auth.signOut(old);
          setSessionCookies(config, secret, request, reply, result.token, result.remember, REMEMBER_MS / 1000);
          reply.setCookie(LOGOUT_COOKIE, sealLogoutHint(secret, result.token, result.idToken), {
            ...cookieOptions(config, request, LOGOUT_PATH),
            ...(result.remember ? { maxAge: REMEMBER_MS / 1000 } : {}),
          });
          return reply.redirect(result.returnTo);
        } catch (error) {
          return refuse(request, reply, error, counts);
        }
      },
    );
  };

/**
 * For POST /api/logout: the provider's end-session address when this session was opened through
 * it (its ID token's cookie is bound to the session's token) and the provider has one; the cookie
 * goes either way. A provider that cannot be read leaves only the local session ended.
 */
export function providerLogout(deps: { provider: OidcProvider | null; config: Config; secret: string }) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    sessionToken: string | undefined,
  ): Promise<string | undefined> => {
    const { provider, config, secret } = deps;
    const value = request.cookies[LOGOUT_COOKIE];
    if (value === undefined) return undefined;
    reply.clearCookie(LOGOUT_COOKIE, cookieOptions(config, request, LOGOUT_PATH));
    const idToken = sessionToken ? openLogoutHint(secret, sessionToken, value) : undefined;
    if (!idToken || !provider) return undefined;
    try {
      return await provider.endSessionUrl(idToken, `${siteAddress(config, request)}${LOGIN_PAGE}`);
    } catch (error) {
      request.log.warn({ err: error }, 'the OpenID Connect provider could not be asked for its logout address');
      return undefined;
    }
  };
}
