import type { RoleCode } from '@lms/contract';
import type { ActiveSession, SessionUser } from '../modules/auth/repository.js';

/** Who may call a route: anyone, any signed-in user, or the listed roles. Every route declares one. */
export type Access = 'public' | 'authenticated' | readonly RoleCode[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Named route, published by GET /ziggy. */
    name?: string;
    /** The 403 text for a role the rule does not admit (default 'Доступ запрещен'). */
    forbiddenMessage?: string;
  }
  interface FastifyRequest {
    /** The session of the request's cookie, resolved once on first use. */
    currentSession(): Promise<ActiveSession | null>;
    /** The signed-in user; throws 401 when there is none (use in routes that require a session). */
    requireUser(): Promise<SessionUser>;
  }
}

export const STAFF: readonly RoleCode[] = ['admin', 'author'];
export const ADMIN: readonly RoleCode[] = ['admin'];
export const ANALYSTS: readonly RoleCode[] = ['admin', 'manager'];
