import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { UnitOfWork } from './db/unitOfWork.js';
import type { AuditService } from './modules/audit/service.js';
import { AuthRepository } from './modules/auth/repository.js';
import type { AuthService } from './modules/auth/service.js';
import { OidcAccounts } from './modules/auth/oidc/accounts.js';
import { OidcProvider } from './modules/auth/oidc/provider.js';
import { OidcAccountsRepository } from './modules/auth/oidc/repository.js';
import { oidcRoutes, providerLogout, type RateLimitCounts } from './modules/auth/oidc/routes.js';
import { OidcSignIn } from './modules/auth/oidc/service.js';
import { DepartmentsRepository } from './modules/departments/repository.js';
import type { EnrollmentService } from './modules/enrollment/service.js';
import type { UsersRepository } from './modules/users/repository.js';
import type { Clock } from './platform/clock.js';
import type { RateLimiter } from './platform/rateLimit.js';
import type { SessionRepository } from './platform/sessions.js';
import type { SignIns } from './modules/signins/service.js';

/** What the sign-in's routes need beyond the provider, known later in `buildApp` than the logout is registered. */
interface SignInDeps {
  uow: UnitOfWork;
  auth: AuthService;
  users: UsersRepository;
  sessions: SessionRepository;
  enrollments: EnrollmentService;
  audit: AuditService;
  limiter: RateLimiter;
  signIns: SignIns;
  counts: RateLimitCounts;
}

/**
 * Sign-in through the company's OpenID Connect provider (issue 33), wired for `buildApp`: first what
 * POST /api/logout asks (the provider's logout address), then `register` adds the two sign-in routes.
 * Without OIDC_ISSUER the routes answer with the sign-in page's 'not configured' and the logout asks
 * nothing.
 */
export function wireOidc(base: { config: Config; secret: string; clock: Clock }) {
  const { config, secret, clock } = base;
  const provider = config.oidc ? new OidcProvider(config.oidc, clock) : null;
  return {
    endProviderSession: providerLogout({ provider, config, secret }),
    async register(app: FastifyInstance, deps: SignInDeps): Promise<void> {
      const { uow } = deps;
      const signIn =
        provider && config.oidc
          ? new OidcSignIn(
              provider,
              new OidcAccounts({
                config: config.oidc,
                loginDomain: config.loginDomain,
                uow,
                auth: new AuthRepository(uow),
                accounts: new OidcAccountsRepository(uow),
                users: deps.users,
                departments: new DepartmentsRepository(uow),
                enrollment: deps.enrollments,
                audit: deps.audit,
                clock,
              }),
              deps.sessions,
              deps.limiter,
              clock,
              deps.signIns,
            )
          : null;
      await app.register(oidcRoutes({ signIn, auth: deps.auth, config, secret, counts: deps.counts }));
    },
  };
}
