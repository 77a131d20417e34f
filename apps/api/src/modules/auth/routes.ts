import { checkAuthResponse, errorResponse, loginRequest, loginResponse, logoutResponse } from '@lms/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { clearSessionCookies, SESSION_COOKIE, setSessionCookies } from '../../platform/security.js';
import { REMEMBER_MS } from '../../platform/sessions.js';
import { toAuthUser } from './permissions.js';
import { LOGIN_MESSAGES, type AuthService } from './service.js';

/** The provider's logout address for a session opened through OpenID Connect (modules/auth/oidc). */
type EndProviderSession = (
  request: FastifyRequest,
  reply: FastifyReply,
  token: string | undefined,
) => Promise<string | undefined>;

export const authRoutes =
  (deps: {
    auth: AuthService;
    config: Config;
    secret: string;
    endProviderSession?: EndProviderSession;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { auth, config, secret } = deps;

    app.get(
      '/api/check-auth',
      {
        config: { access: 'public', name: 'check-auth' },
        schema: { tags: ['auth'], summary: 'Who is signed in', response: { 200: checkAuthResponse } },
      },
      async (request) => toAuthUser((await request.currentSession())?.user ?? null),
    );

    app.post(
      '/login',
      {
        config: { access: 'public', name: 'login' },
        schema: {
          tags: ['auth'],
          summary: 'Sign in',
          body: loginRequest,
          response: { 200: loginResponse, 422: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const { token, user, remember } = await auth.signIn({
          ...request.body,
          ip: request.ip.slice(0, 64),
          userAgent: request.headers['user-agent'] ?? null,
        });
        const old = request.cookies[SESSION_COOKIE];
        if (old) await auth.signOut(old);
        setSessionCookies(config, secret, request, reply, token, remember, REMEMBER_MS / 1000);
        return { result: { success: true as const, message: LOGIN_MESSAGES.success }, user: toAuthUser(user) };
      },
    );

    app.post(
      '/api/logout',
      {
        config: { access: 'public', name: 'logout' },
        schema: { tags: ['auth'], summary: 'Sign out', response: { 200: logoutResponse } },
      },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        const redirect = await deps.endProviderSession?.(request, reply, token);
        if (token) await auth.signOut(token);
        clearSessionCookies(config, secret, request, reply);
        return { result: { success: true as const }, ...(redirect ? { redirect } : {}) };
      },
    );
  };
