import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { can, type Access } from './access.js';
import { HttpError, MESSAGES, forbidden, unauthorized } from './errors.js';
import type { ActiveSession, SessionResolver } from './sessions.js';
import { hmac, randomToken, safeEqual } from './tokens.js';

export const SESSION_COOKIE = 'lms_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessionKey = Symbol('session');
type WithSession = FastifyRequest & { [sessionKey]?: Promise<ActiveSession | null> };

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
  name: string | undefined;
}

export interface SecurityDeps {
  config: Config;
  secret: string;
  sessions: SessionResolver;
  routes: RegisteredRoute[];
}

/** A CSRF token bound to the session cookie: nonce.HMAC(nonce|session). Not readable by other sites. */
function makeXsrf(secret: string, sessionToken: string): string {
  const nonce = randomToken().slice(0, 16);
  return `${nonce}.${hmac(secret, `${nonce}|${sessionToken}`)}`;
}
function xsrfValid(secret: string, sessionToken: string, value: string | undefined): boolean {
  if (!value) return false;
  const [nonce, mac] = value.split('.');
  if (!nonce || !mac) return false;
  return safeEqual(mac, hmac(secret, `${nonce}|${sessionToken}`));
}

/** Whether cookies get `Secure`: PUBLIC_URL's scheme, or else the request's (behind TRUST_PROXY). */
export function isHttps(config: Config, request: FastifyRequest): boolean {
  return config.publicUrl?.startsWith('https://') ?? request.protocol === 'https';
}

export function setSessionCookies(
  config: Config,
  secret: string,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  remember: boolean,
  maxAgeSeconds: number,
): void {
  const secure = isHttps(config, request);
  const lifetime = remember ? { maxAge: maxAgeSeconds } : {};
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, ...lifetime });
  reply.setCookie(XSRF_COOKIE, makeXsrf(secret, token), { path: '/', sameSite: 'lax', secure, ...lifetime });
}

export function clearSessionCookies(config: Config, secret: string, request: FastifyRequest, reply: FastifyReply) {
  const secure = isHttps(config, request);
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  reply.setCookie(XSRF_COOKIE, makeXsrf(secret, ''), { path: '/', sameSite: 'lax', secure });
}

/** The address the request came to: without PUBLIC_URL, what a browser's own requests come from. */
const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

function expectedOrigin(config: Config, request: FastifyRequest): string {
  return config.publicUrl ? new URL(config.publicUrl).origin : requestOrigin(request);
}

/**
 * The address of the platform for links in the mails a request sends (welcome, new password):
 * PUBLIC_URL, or else the address the request came to — the one the administrator (or the user
 * with the code) has the platform open at, which a state-changing request had to come from anyway.
 */
export function siteAddress(config: Config, request: FastifyRequest): string {
  return config.publicUrl ?? requestOrigin(request);
}

/**
 * Sessions, CSRF and the access rule of every route (docs/rules.md §Sessions and CSRF).
 * Registered before any route: a route without a declared access rule stops the server from starting.
 */
export function installSecurity(app: FastifyInstance, deps: SecurityDeps): void {
  const { config, secret, sessions } = deps;
  const docsAccess: Access = config.env === 'production' ? 'settings.manage' : 'public';

  app.addHook('onRoute', (route) => {
    route.config ??= {};
    if (route.config.capability === true && route.config.access !== 'public') {
      throw new Error(`Route ${String(route.method)} ${route.url}: a capability route is public`);
    }
    if (route.config.access === undefined) {
      if (route.url.startsWith('/docs')) route.config.access = docsAccess;
      // The built web client (@fastify/static's wildcard): public files.
      else if (route.url === '/*' && [route.method].flat().includes('GET')) route.config.access = 'public';
      else throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
    }
    for (const method of [route.method].flat()) {
      deps.routes.push({ method, url: route.url, access: route.config.access, name: route.config.name });
    }
  });

  app.decorateRequest('currentSession', function (this: WithSession) {
    if (!this[sessionKey]) {
      const token = this.cookies[SESSION_COOKIE];
      this[sessionKey] = token
        ? sessions.resolve(token).then((session) => {
            // The request's later lines (its access line, an error) name the user: one person's
            // complaint is found in the logs by their id (docs/decisions.md §Health, metrics and request ids).
            if (session) this.log = this.log.child({ userId: session.user.id });
            return session;
          })
        : Promise.resolve(null);
    }
    return this[sessionKey];
  });
  app.decorateRequest('requireUser', async function (this: FastifyRequest) {
    const session = await this.currentSession();
    if (!session) throw unauthorized();
    return session.user;
  });

  app.addHook('onRequest', async (request, reply) => {
    // A capability route never reads the session: it gets neither the checks nor the CSRF cookie.
    if (request.routeOptions.config?.capability === true) return;
    const sessionToken = request.cookies[SESSION_COOKIE] ?? '';
    const xsrfCookie = request.cookies[XSRF_COOKIE];
    if (!xsrfValid(secret, sessionToken, xsrfCookie)) {
      reply.setCookie(XSRF_COOKIE, makeXsrf(secret, sessionToken), {
        path: '/',
        sameSite: 'lax',
        secure: isHttps(config, request),
      });
    }

    if (!SAFE_METHODS.has(request.method)) {
      const site = request.headers['sec-fetch-site'];
      const origin = request.headers.origin;
      if (site === 'cross-site' || site === 'same-site' || (origin && origin !== expectedOrigin(config, request))) {
        throw new HttpError(403, MESSAGES.crossSite);
      }
      const header = request.headers[XSRF_HEADER];
      if (
        request.headers['x-requested-with'] !== 'XMLHttpRequest' ||
        !xsrfValid(secret, sessionToken, typeof header === 'string' ? header : undefined)
      ) {
        throw new HttpError(403, MESSAGES.csrf);
      }
    }

    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    const session = await request.currentSession();
    if (!session) throw unauthorized();
    // A password an administrator mailed is replaced first: the one rule for every route.
    if (session.user.must_change_password && request.routeOptions.config.beforeOwnPassword !== true) {
      throw forbidden(MESSAGES.ownPasswordFirst);
    }
    if (access !== 'authenticated' && !can(session.user.role, access)) {
      throw forbidden(request.routeOptions.config.forbiddenMessage);
    }
  });
}
