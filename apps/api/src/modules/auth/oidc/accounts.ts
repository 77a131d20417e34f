import { safeText, type OidcErrorCode } from '@lms/contract';
import { z } from 'zod';
import type { OidcConfig } from '../../../config.js';
import type { UnitOfWork } from '../../../db/unitOfWork.js';
import { iso, type Clock } from '../../../platform/clock.js';
import { hashPassword } from '../../../platform/passwords.js';
import type { SessionUser } from '../../../platform/sessions.js';
import { randomToken } from '../../../platform/tokens.js';
import { personFieldsOf } from '../../audit/changes.js';
import type { AuditService } from '../../audit/service.js';
import type { DepartmentsRepository } from '../../departments/repository.js';
import type { EnrollmentService } from '../../enrollment/service.js';
import type { UsersRepository } from '../../users/repository.js';
import { fullName } from '../permissions.js';
import type { AuthRepository } from '../repository.js';
import type { OidcAccountsRepository } from './repository.js';

/** A sign-in through the provider that ends without a session; `code` names its Russian text. */
export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcErrorCode,
    options?: { cause?: unknown },
  ) {
    super(`OpenID Connect sign-in refused: ${code}`, options);
    this.name = 'OidcRefusal';
  }
}

const email = z.string().trim().toLowerCase().max(254).email();
const name = safeText(100, { required: 'empty' });
const position = safeText(255);

/** A claim as text: a string, or the first string of a list (some providers send lists). */
function text(value: unknown): string | undefined {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' ? first : undefined;
}

const parsed = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => {
  const result = schema.safeParse(text(value));
  return result.success ? result.data : undefined;
};

/** Some providers send booleans as strings. */
const isFalse = (value: unknown) => value === false || value === 'false';

/**
 * Who the provider's claims are on this platform (docs/rules.md §Sign-in through the company's
 * provider): the live account with that address, or a new learner when OIDC_CREATE_USERS allows it.
 */
export class OidcAccounts {
  constructor(
    private readonly deps: {
      config: OidcConfig;
      loginDomain: string;
      uow: UnitOfWork;
      auth: AuthRepository;
      accounts: OidcAccountsRepository;
      users: UsersRepository;
      departments: DepartmentsRepository;
      enrollment: EnrollmentService;
      audit: AuditService;
      clock: Clock;
    },
  ) {}

  /** The address the claims give, as the journal of sign-ins shows it ('' for none). */
  loginOf(claims: Record<string, unknown>): string {
    return (text(claims[this.deps.config.claims.email]) ?? '').trim().toLowerCase();
  }

  async personOf(claims: Record<string, unknown>): Promise<SessionUser> {
    const { config, auth } = this.deps;
    const address = parsed(email, claims[config.claims.email]);
    if (!address) throw new OidcRefusal('no_email');
    // An address the provider has not verified may be anyone's: it never opens an existing account,
    // nor makes a new one. A provider that does not say (many don't) vouches for its own addresses.
    if (isFalse(claims.email_verified)) throw new OidcRefusal('email_unverified');
    const live = await auth.findByLogin(address);
    if (live) return live.user;
    if (await this.deps.accounts.deletedWith(address)) throw new OidcRefusal('disabled');
    if (!config.createUsers) throw new OidcRefusal('unknown_user');
    // A tenant's guests and partners have other domains: only the company's addresses get accounts.
    if (!address.endsWith(`@${this.deps.loginDomain}`)) throw new OidcRefusal('foreign_domain');
    return this.create(address, claims);
  }

  /**
   * A learner made at the first sign-in, through the users repository as the employees tab makes
   * people, in one transaction with their enrollments and the audit entry.
   */
  private async create(address: string, claims: Record<string, unknown>): Promise<SessionUser> {
    const { config, users, uow, clock } = this.deps;
    const firstName = parsed(name, claims[config.claims.firstName]);
    const lastName = parsed(name, claims[config.claims.lastName]);
    if (!firstName || !lastName) throw new OidcRefusal('incomplete');
    // Never used to sign in (their password is the provider's), but a real hash like an imported
    // person's: password recovery still works, and a password check costs the same for everyone.
    const passwordHash = await hashPassword(randomToken());
    const departmentName = text(claims[config.claims.department])?.trim().toLowerCase();
    await uow.run(async () => {
      if (await users.emailTaken(address)) return; // created by a parallel sign-in meanwhile
      const departments = departmentName ? await this.deps.departments.names() : [];
      const department = departments.find((d) => d.name.trim().toLowerCase() === departmentName);
      const learner = (await users.roles()).find((r) => r.code === 'learner');
      if (!learner) throw new Error('the learner role is missing');
      const now = iso(clock.now());
      const id = await users.insert(
        {
          first_name: firstName,
          last_name: lastName,
          email: address,
          department_id: department?.id ?? null,
          role_id: learner.id,
          position: parsed(position, claims[config.claims.position]) || null,
          origin: 'sso',
        },
        passwordHash,
        now,
      );
      // `insert` marks a mailed password to be replaced; there is none here, so the flag is cleared.
      await users.setPasswordHash(id, passwordHash, false, now);
      await this.deps.enrollment.userMoved(id);
      const created = await users.find(id);
      if (!created) throw new Error('the new account is not there');
      const person = { id, name: fullName(created) };
      await this.deps.audit.userCreated({ actor: person, source: 'sso' }, person, personFieldsOf(created));
    });
    const account = await this.deps.auth.findByLogin(address);
    if (!account) throw new Error('the new account is not there');
    return account.user;
  }
}
