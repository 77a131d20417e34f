import { SCORM_LIMITS } from '@lms/contract';
import type { Config } from './config.js';
import type { UnitOfWork } from './db/unitOfWork.js';
import type { CourseStructureRepository } from './modules/courses/structure.js';
import type { LearningService } from './modules/learning/service.js';
import { scormContentRoutes } from './modules/scorm/contentRoutes.js';
import type { ScormRepository } from './modules/scorm/repository.js';
import type { ScormResults } from './modules/scorm/results.js';
import { scormRoutes } from './modules/scorm/routes.js';
import { ScormService } from './modules/scorm/service.js';
import type { UsersRepository } from './modules/users/repository.js';
import type { Clock } from './platform/clock.js';
import type { FileStore } from './platform/fileStore/fileStore.js';
import type { FastifyInstance } from 'fastify';

/**
 * SCORM packages for `buildApp` (issue 34): the service, the constructor's and learner's calls, and
 * the content routes reached by a launch's capability (after the multipart parser).
 */
export async function registerScorm(
  app: FastifyInstance,
  deps: {
    config: Config;
    secret: string;
    uow: UnitOfWork;
    clock: Clock;
    repo: ScormRepository;
    results: ScormResults;
    structure: CourseStructureRepository;
    learning: LearningService;
    users: UsersRepository;
    store: FileStore;
  },
): Promise<ScormService> {
  const { config } = deps;
  const scorm = new ScormService(
    deps.uow,
    deps.repo,
    deps.results,
    deps.structure,
    deps.learning,
    deps.users,
    deps.clock,
    {
      dataDir: config.dataDir,
      store: deps.store,
      secret: deps.secret,
      contentOrigin: config.contentUrl,
      appOrigin: config.publicUrl ? new URL(config.publicUrl).origin : undefined,
      uploadBytes: SCORM_LIMITS.uploadBytes,
    },
  );
  await app.register(scormRoutes(scorm));
  await app.register(scormContentRoutes(scorm));
  return scorm;
}
