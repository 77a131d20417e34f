import fastifyCookie from '@fastify/cookie';
import { FILE_MAX_BYTES } from '@lms/contract';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { installDrain } from './platform/drain.js';
import { installRequestLog, requestIds } from './platform/requestLog.js';
import { AppMetrics } from './platform/metrics.js';
import { registerOps } from './opsWiring.js';
import { installSecurityHeaders } from './platform/securityHeaders.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { UnitOfWork } from './db/unitOfWork.js';
import { CatalogueRepository } from './modules/catalogue/repository.js';
import { catalogueRoutes } from './modules/catalogue/routes.js';
import { CatalogueService } from './modules/catalogue/service.js';
import { DepartmentsRepository } from './modules/departments/repository.js';
import { departmentsRoutes } from './modules/departments/routes.js';
import { DepartmentsService } from './modules/departments/service.js';
import { CoursesRepository } from './modules/courses/repository.js';
import { CoursesService } from './modules/courses/service.js';
import { CourseStructureRepository } from './modules/courses/structure.js';
import { constructorRoutes } from './modules/constructor/routes.js';
import { ConstructorService } from './modules/constructor/service.js';
import { testRoutes } from './modules/constructor/testRoutes.js';
import { TestAuthoring } from './modules/constructor/tests.js';
import { TestsRepository } from './modules/courses/tests.js';
import { attemptRoutes } from './modules/attempts/routes.js';
import { AttemptsRepository } from './modules/attempts/repository.js';
import { AttemptsService } from './modules/attempts/service.js';
import { learningRoutes } from './modules/learning/routes.js';
import { analyticsRoutes } from './modules/analytics/routes.js';
import { AnalyticsService } from './modules/analytics/service.js';
import { assignmentRoutes } from './modules/assignment/routes.js';
import { AssignmentService } from './modules/assignment/service.js';
import { auditRoutes } from './modules/audit/routes.js';
import { AuditRepository } from './modules/audit/repository.js';
import { AuditService } from './modules/audit/service.js';
import { exportsRoutes } from './modules/exports/routes.js';
import { registerPeople } from './peopleWiring.js';
import { registerSignIns, signInParts } from './signInWiring.js';
import { wireOidc } from './oidcWiring.js';
import { ExportsService } from './modules/exports/service.js';
import { profileRoutes } from './modules/profile/routes.js';
import { ProfileService } from './modules/profile/service.js';
import { LearningService } from './modules/learning/service.js';
import { registerMultipart } from './modules/files/multipart.js';
import { separateContentHost } from './modules/scorm/contentRoutes.js';
import { ScormRepository } from './modules/scorm/repository.js';
import { ScormResults } from './modules/scorm/results.js';
import { registerScorm } from './scormWiring.js';
import { certificateService, registerCertificates } from './certificateWiring.js';
import { uploadRoutes } from './modules/files/uploadRoutes.js';
import { Uploads } from './modules/files/uploads.js';
import { CourseOptions } from './modules/enrollment/courseOptions.js';
import { FileAccess } from './modules/files/access.js';
import { FilesRepository } from './modules/files/repository.js';
import { storageRoutes } from './modules/files/routes.js';
import { Storage } from './modules/files/storage.js';
import { GroupsRepository } from './modules/groups/repository.js';
import { groupsRoutes } from './modules/groups/routes.js';
import { GroupsService } from './modules/groups/service.js';
import { EnrollmentRepository } from './modules/enrollment/repository.js';
import { EnrollmentService } from './modules/enrollment/service.js';
import { EnrollmentSources } from './modules/enrollment/sources.js';
import { homeRoutes } from './modules/home/routes.js';
import { HomeService } from './modules/home/service.js';
import { menuRoutes } from './modules/menu/routes.js';
import { MailOutbox } from './modules/mail/outbox.js';
import { MailLogRepository } from './modules/mail/repository.js';
import { mailLogRoutes } from './modules/mail/routes.js';
import { MailLogService } from './modules/mail/service.js';
import { ProgressRepository } from './modules/progress/repository.js';
import { LearningEngine } from './modules/progress/service.js';
import { DeadlineReads } from './modules/progress/deadlines.js';
import { KeptRankings } from './modules/progress/keptRankings.js';
import { KeptCourseList } from './modules/progress/courseList.js';
import { LearningStateReads } from './modules/progress/reads.js';
import { LearningStates } from './modules/progress/states.js';
import { RemindersRepository } from './modules/reminders/repository.js';
import { RemindersService } from './modules/reminders/service.js';
import { Credentials } from './modules/users/credentials.js';
import { UsersRepository } from './modules/users/repository.js';
import { usersRoutes } from './modules/users/routes.js';
import { UsersService } from './modules/users/service.js';
import { RecoveryRepository } from './modules/recovery/repository.js';
import { recoveryRoutes } from './modules/recovery/routes.js';
import { RecoveryService } from './modules/recovery/service.js';
import { systemRoutes } from './modules/system/routes.js';
import { responseSerializerCompiler } from './platform/serializer.js';
import { answerClientError, answerFrameworkError, installErrorHandler } from './platform/errorHandler.js';
import { MESSAGES } from './platform/errors.js';
import { MailSealer } from './platform/mail/sealed.js';
import { createTransport } from './platform/mail/transport.js';
import { PeopleTime } from './platform/peopleTime.js';
import { RateLimiter } from './platform/rateLimit.js';
import { isClientPage, registerWebClient } from './platform/webClient.js';
import { installSecurity, type RegisteredRoute } from './platform/security.js';
import { installIdempotency } from './platform/idempotency.js';
import { SessionRepository, SessionResolver } from './platform/sessions.js';
import { createFileStore } from './platform/fileStore/fromConfig.js';

/** Batches of the periodic renewal per run (2 000 rows each); the next run goes on with the rest. */
const RENEWAL_BATCHES = 50;

z.config(z.locales.ru());

import type { App, AppDeps, BackgroundJobs } from './appTypes.js';

export type { App, AppDeps, BackgroundJobs };

const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  'body.password',
];

/** Builds the whole application on the given dependencies; does not listen. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db, clock, secret } = deps;
  const app = Fastify({
    logger: deps.logger === undefined ? false : deps.logger,
    // A hop count trusts that many proxies nearest to the server, as Express and Fastify define it.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Our onRequest hook answers while closing instead, in Russian and on the same terms.
    return503OnClosing: false,
    // One access line per answered request (platform/requestLog.ts) instead of Fastify's two, the
    // first of which serializes the request: at the production level (info) the two cost about a tenth
    // of a cold home page's throughput (docs/decisions.md §Logs).
    logController: new LogController({ disableRequestLogging: true }),
    // What Fastify and Node's HTTP parser answer themselves, in the API's format (errorHandler.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // The balancer's X-Request-Id when it is a safe token, else a new one (platform/requestLog.ts).
    genReqId: requestIds(config.trustProxy !== false),
    ...(deps.logger ? { logger: { ...(typeof deps.logger === 'object' ? deps.logger : {}), redact: REDACT } } : {}),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  installErrorHandler(app);
  installRequestLog(app);

  // While closing, in-flight requests finish and new ones get 503, and no connection is reset
  // (SIGTERM in server.ts): an idle connection gets half the drain time to send one more request.
  const drain = installDrain(app, {
    idleMs: Math.min(app.server.keepAliveTimeout, Math.ceil(config.shutdownTimeoutMs / 2)),
    message: MESSAGES.shuttingDown,
  });

  // With CONTENT_URL, its host serves SCORM content and nothing else (modules/scorm/contentRoutes.ts).
  separateContentHost(app, config.contentUrl);
  await app.register(fastifyCookie);
  installSecurityHeaders(app, config.contentUrl);
  // Answers depend on the session: kept by no browser or proxy, unless the route says otherwise (the
  // web client's files, downloads).
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const registeredRoutes: RegisteredRoute[] = [];
  // Repositories share one unit of work: a service's transaction reaches every query it makes.
  const uow = new UnitOfWork(db.kysely, db.kind);

  // Every mail goes through the outbox (the mail log): queued in the sender's transaction, delivered
  // in the background with retries (issue 30).
  const people = new PeopleTime(config.timeZone);
  // This app's own registry, handed to what counts (opsWiring.ts exposes it).
  const mailLogRepo = new MailLogRepository(uow);
  const metrics = new AppMetrics({ poolStats: () => db.poolStats(), queuedMails: () => mailLogRepo.countQueued() });
  const mailer = new MailOutbox(
    uow,
    mailLogRepo,
    deps.mailTransport ?? createTransport(config),
    new MailSealer(secret),
    clock,
    { retryMs: config.mail.retryMs, log: app.log, counts: metrics },
  );
  const mailLog = new MailLogService(uow, mailLogRepo, mailer, clock, config.mail.retryMs);
  const mailContext = { companyName: config.companyName, publicUrl: config.publicUrl, people };
  const sessions = new SessionRepository(uow);
  const users = new UsersRepository(uow);
  const courses = new CoursesRepository(uow);
  const enrollment = new EnrollmentRepository(uow);
  const progress = new ProgressRepository(uow);
  const fileStore = deps.fileStore ?? createFileStore(config);
  const storage = new Storage(fileStore);
  const limiter = new RateLimiter(db.kysely);
  // Certificates are issued in the transaction that completes a course: they listen to the learning state.
  const certificates = certificateService({
    ...{ config, uow, users, courses, storage, limiter, clock, people },
    completedRows: (courseId) => learningStates.completedRows(courseId),
  });
  const rankings = new KeptRankings(uow, clock);
  const learningStates = new LearningStates(uow, courses, progress, enrollment, rankings, clock, certificates);
  // The one writer of the enrollment sources; it refreshes the learning states itself.
  const enrollments = new EnrollmentService(uow, new EnrollmentSources(uow), enrollment, learningStates);
  const credentials = new Credentials(uow, users, sessions, clock);
  const { signIns, directoryPasswords } = signInParts(config, uow, clock, metrics);
  const auth = new AuthService(new AuthRepository(uow), sessions, limiter, clock, signIns, directoryPasswords);
  const recovery = new RecoveryService(
    uow,
    new RecoveryRepository(uow),
    credentials,
    limiter,
    mailer,
    clock,
    secret,
    mailContext,
    signIns,
  );
  installSecurity(app, {
    config,
    secret,
    sessions: new SessionResolver(sessions, clock),
    routes: registeredRoutes,
  });
  // After the security hook: a POST's Idempotency-Key is its user's (platform/idempotency.ts).
  const idempotency = installIdempotency(app, { db: db.kysely, clock, counts: metrics });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.companyName}: LMS API`, version: '0.1.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lms_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });

  const oidc = wireOidc({ config, secret, clock });
  await app.register(authRoutes({ auth, config, secret, endProviderSession: oidc.endProviderSession }));
  await registerSignIns(app, signIns);
  await app.register(menuRoutes);
  await app.register(recoveryRoutes(recovery, config));

  const courseOptions = new CourseOptions(courses);
  // The audit of people changes: written by the services that change people, in their transaction.
  const audit = new AuditService(new AuditRepository(uow), clock);
  await app.register(auditRoutes(audit));
  const usersService = new UsersService(
    uow,
    users,
    sessions,
    enrollments,
    credentials,
    courseOptions,
    mailer,
    clock,
    mailContext,
    audit,
  );
  await app.register(usersRoutes(usersService, config));
  await oidc.register(app, { uow, auth, users, sessions, enrollments, audit, limiter, signIns, counts: metrics });
  await app.register(mailLogRoutes(mailLog));
  const departmentsRepo = new DepartmentsRepository(uow);
  const groupsRepo = new GroupsRepository(uow);
  await app.register(
    departmentsRoutes(new DepartmentsService(uow, departmentsRepo, courseOptions, enrollments, clock, audit)),
  );
  await app.register(groupsRoutes(new GroupsService(uow, groupsRepo, users, courseOptions, enrollments, clock, audit)));
  // A course's own 'Назначение': the same enrollment sources as the two tabs above, for authors too.
  await app.register(
    assignmentRoutes(
      new AssignmentService(uow, courses, departmentsRepo, groupsRepo, users, usersService, enrollments, audit, clock),
    ),
  );

  const stateReads = new LearningStateReads(uow, courses, progress, enrollment, new KeptCourseList(uow), clock);
  const deadlines = new DeadlineReads(uow, courses, enrollment, stateReads, clock);
  const engine = new LearningEngine(progress, courses, enrollment, clock, learningStates, stateReads, deadlines);
  const catalogueRepo = new CatalogueRepository(uow);
  const courseDeletion = new CoursesService(uow, courses, enrollments);
  await app.register(catalogueRoutes(new CatalogueService(uow, catalogueRepo, courses, courseDeletion, engine, clock)));
  await app.register(homeRoutes(new HomeService(engine)));

  const files = new FilesRepository(uow);
  const structure = new CourseStructureRepository(uow);
  const scormRepo = new ScormRepository(uow);
  const scormResults = new ScormResults(scormRepo);
  const constructorService = new ConstructorService(
    uow,
    courses,
    structure,
    courseDeletion,
    files,
    engine,
    clock,
    scormRepo,
  );
  await app.register(constructorRoutes(constructorService));
  // Files stream to disk (modules/files/uploads.ts); each route sets its own smaller limit.
  await registerMultipart(app, { fileSize: FILE_MAX_BYTES + 1, files: 1, fields: 10 });
  const uploads = new Uploads(fileStore, uow, files, clock);
  const { invitations, directory } = await registerPeople(app, {
    config,
    uow,
    users,
    sessions,
    enrollments,
    audit,
    mailer,
    mailContext,
    clock,
  });
  await app.register(uploadRoutes({ uploads, targets: constructorService }));
  await registerCertificates(app, { certificates, uploads });
  const testsRepo = new TestsRepository(uow);
  const authoring = new TestAuthoring(uow, testsRepo, structure, constructorService, files, clock);
  await app.register(testRoutes({ authoring, uploads }));
  const learning = new LearningService(uow, courses, structure, progress, engine, clock, scormResults);
  await app.register(learningRoutes(learning));
  const scormParts = { repo: scormRepo, results: scormResults, structure, learning, users };
  await registerScorm(app, { config, secret, uow, clock, store: fileStore, ...scormParts });
  const attemptsRepo = new AttemptsRepository(uow);
  const attempts = new AttemptsService(uow, attemptsRepo, testsRepo, learning, clock);
  await app.register(attemptRoutes({ attempts, authoring }));
  await app.register(profileRoutes(new ProfileService(users, credentials, limiter, clock)));
  const analytics = new AnalyticsService(users, courses, catalogueRepo, engine, people, scormResults);
  await app.register(analyticsRoutes(analytics));
  await app.register(exportsRoutes(new ExportsService(analytics, usersService, audit, clock, people, certificates)));
  await app.register(systemRoutes({ config, routes: registeredRoutes, store: fileStore }));
  const ops = await registerOps(app, { config, db, clock, store: fileStore, metrics, stopping: drain.stopping });
  await app.register(
    storageRoutes({
      storage,
      files,
      access: new FileAccess(users, courses, enrollment, engine, attemptsRepo),
    }),
  );

  const webClient = await registerWebClient(app, config.webDist);
  app.setNotFoundHandler((request, reply) => {
    if (webClient && request.method === 'GET' && isClientPage(request.url)) return webClient.sendIndex(reply);
    return reply.code(404).send({ result: { success: false, message: MESSAGES.notFound } });
  });

  const reminders = new RemindersService(
    uow,
    new RemindersRepository(uow),
    courses,
    engine,
    analytics,
    mailer,
    mailContext,
    clock,
    { perPass: config.reminders.perPass, digest: config.digest, counts: metrics },
  );
  // Before the database closes: a running pass ends after the batch it is claiming; then the outbox
  // starts no new try, and the tries under way finish (onClose hooks run before server.ts closes the
  // database).
  app.addHook('preClose', () => reminders.close());
  app.addHook('preClose', async () => mailer.stop());
  app.addHook('onClose', () => mailer.settled());
  const jobs: BackgroundJobs = {
    sweepExpiredAttempts: () => attempts.sweep(),
    pruneIdempotencyKeys: () => idempotency.prune(),
    renewLearningStates: async () => {
      let renewed = 0;
      for (let batch = 0; batch < RENEWAL_BATCHES; batch++) {
        const n = await uow.run(() => engine.renewExpired());
        renewed += n;
        if (n === 0) break;
      }
      return renewed;
    },
    remind: () => reminders.pass(),
    deliverMail: () => mailer.deliver(),
    sendInvitations: () => invitations.sendDue(),
    syncDirectory: () => directory.run(),
    mailSettled: () => mailer.settled(),
  };
  return Object.assign(app, {
    registeredRoutes,
    jobs,
    stopAccepting: drain.stopAccepting,
    mailer,
    fileStore,
    metricsAddress: ops.metricsAddress,
  }) as unknown as App;
}
