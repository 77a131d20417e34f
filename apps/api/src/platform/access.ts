import type { Permission, RoleCode } from '@lms/contract';
import type { ActiveSession, SessionUser } from './sessions.js';

/**
 * What each role may do (docs/rules.md §Roles): admin — everything; author — catalogue and constructor;
 * manager — analytics of their employees; everyone — learning and their own profile. The one table
 * behind every route guard and the `permissions` the client receives.
 */
export const ROLE_PERMISSIONS: Record<RoleCode, readonly Permission[]> = {
  admin: ['learning', 'profile', 'analytics.view', 'catalogue.manage', 'constructor.manage', 'settings.manage'],
  author: ['learning', 'profile', 'catalogue.manage', 'constructor.manage'],
  manager: ['learning', 'profile', 'analytics.view'],
  learner: ['learning', 'profile'],
};

export const can = (role: RoleCode, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/** Who may call a route: anyone, any signed-in user, or the holders of a permission. Every route declares one. */
export type Access = 'public' | 'authenticated' | Permission;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Named route, published by GET /ziggy. */
    name?: string;
    /** The 403 text for a role the rule does not admit (default 'Доступ запрещен'). */
    forbiddenMessage?: string;
    /**
     * Open to a signed-in user whose password an administrator mailed (`must_change_password`): the
     * call that sets their own. Every other non-public route answers 403 until then (security.ts).
     */
    beforeOwnPassword?: true;
    /**
     * A public route authorised by a signed capability in its path, not by the session (a SCORM
     * package's commits, sent from a frame on another origin or none): the cross-site and CSRF checks
     * of cookie-authorised calls do not apply, and the route never reads the session.
     */
    capability?: true;
  }
  interface FastifyRequest {
    /** The session of the request's cookie, resolved once on first use. */
    currentSession(): Promise<ActiveSession | null>;
    /** The signed-in user; throws 401 when there is none (use in routes that require a session). */
    requireUser(): Promise<SessionUser>;
  }
}
