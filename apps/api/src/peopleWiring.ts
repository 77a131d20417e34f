import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { UnitOfWork } from './db/unitOfWork.js';
import type { AuditService } from './modules/audit/service.js';
import { DepartmentsRepository } from './modules/departments/repository.js';
import { directoryRoutes } from './modules/directory/routes.js';
import { DirectorySync } from './modules/directory/service.js';
import type { EnrollmentService } from './modules/enrollment/service.js';
import { PeopleBatchRepository } from './modules/people/repository.js';
import { peopleImportRoutes } from './modules/people/routes.js';
import { PeopleImportService } from './modules/people/service.js';
import { WelcomeQueue } from './modules/people/welcome.js';
import type { UsersRepository } from './modules/users/repository.js';
import type { Clock } from './platform/clock.js';
import type { Mailer } from './platform/mail/mailer.js';
import type { MailContext } from './platform/mail/templates.js';
import type { SessionRepository } from './platform/sessions.js';

interface PeopleDeps {
  config: Config;
  uow: UnitOfWork;
  users: UsersRepository;
  sessions: SessionRepository;
  enrollments: EnrollmentService;
  audit: AuditService;
  mailer: Mailer;
  mailContext: MailContext;
  clock: Clock;
}

/**
 * People in bulk (issue 32), wired for `buildApp`: the import's routes, the directory sync's, and the
 * two background passes they bring (invitations, the scheduled sync). Registered after the multipart
 * parser, which the import's upload needs.
 */
export async function registerPeople(app: FastifyInstance, deps: PeopleDeps) {
  const { config, uow, clock } = deps;
  const invitations = new WelcomeQueue(uow, deps.users, deps.mailer, deps.mailContext, clock);
  app.addHook('preClose', async () => invitations.stop());
  const peopleImport = new PeopleImportService(
    uow,
    new PeopleBatchRepository(uow),
    deps.users,
    new DepartmentsRepository(uow),
    deps.sessions,
    deps.enrollments,
    deps.audit,
    invitations,
    clock,
    config.loginDomain,
  );
  await app.register(peopleImportRoutes(peopleImport, config));
  const directory = new DirectorySync(config.directory, peopleImport, config.publicUrl ?? '');
  await app.register(directoryRoutes(directory));
  return { invitations, directory };
}
