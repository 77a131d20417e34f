import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { UnitOfWork } from './db/unitOfWork.js';
import { certificateRoutes } from './modules/certificates/routes.js';
import { CertificatesRepository } from './modules/certificates/repository.js';
import { CertificatesService } from './modules/certificates/service.js';
import type { CoursesRepository } from './modules/courses/repository.js';
import type { Storage } from './modules/files/storage.js';
import type { Uploads } from './modules/files/uploads.js';
import type { StoredState } from './modules/progress/engine.js';
import type { UsersRepository } from './modules/users/repository.js';
import type { Clock } from './platform/clock.js';
import type { PeopleTime } from './platform/peopleTime.js';
import type { RateLimiter } from './platform/rateLimit.js';

/**
 * Certificates for `buildApp` (issue 35): the service exists before the learning state (it listens
 * for completions in their transaction); its routes come after the uploads.
 */
export function certificateService(deps: {
  config: Config;
  uow: UnitOfWork;
  users: UsersRepository;
  courses: CoursesRepository;
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  people: PeopleTime;
  /** The learning state's completed pairs of a course (made after this service: read when asked). */
  completedRows: (courseId: number) => Promise<StoredState[]>;
}): CertificatesService {
  const { config, ...rest } = deps;
  return new CertificatesService({
    ...rest,
    repo: new CertificatesRepository(deps.uow),
    companyName: config.companyName,
    publicUrl: config.publicUrl,
  });
}

export async function registerCertificates(
  app: FastifyInstance,
  deps: { certificates: CertificatesService; uploads: Uploads },
): Promise<void> {
  await app.register(certificateRoutes(deps));
}
