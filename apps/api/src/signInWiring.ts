import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { UnitOfWork } from './db/unitOfWork.js';
import type { DirectoryPasswords } from './modules/auth/service.js';
import { checkDirectoryPassword } from './modules/directory/passwords.js';
import { SignInRepository } from './modules/signins/repository.js';
import { signInRoutes } from './modules/signins/routes.js';
import { SignIns, type SignInCounts } from './modules/signins/service.js';
import type { Clock } from './platform/clock.js';

/**
 * Sign-in beyond the platform's password (issue 33), wired for `buildApp`: the journal and the
 * settings every way in consults, and the directory's password check when LDAP_AUTH is on.
 */
export function signInParts(config: Config, uow: UnitOfWork, clock: Clock, counts?: SignInCounts) {
  const ways = { ldap: config.ldapAuth, oidc: config.oidc !== null };
  const signIns = new SignIns(new SignInRepository(uow), clock, ways, counts);
  const directory = config.ldapAuth ? config.directory : null;
  const directoryPasswords: DirectoryPasswords | null = directory
    ? (login, password) => checkDirectoryPassword(directory, login, password)
    : null;
  return { signIns, directoryPasswords };
}

export async function registerSignIns(app: FastifyInstance, signIns: SignIns): Promise<void> {
  await app.register(signInRoutes(signIns));
}
