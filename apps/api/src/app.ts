import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { CatalogueRepository } from './modules/catalogue/repository.js';
import { catalogueRoutes } from './modules/catalogue/routes.js';
import { CatalogueService } from './modules/catalogue/service.js';
import { DepartmentsRepository } from './modules/departments/repository.js';
import { departmentsRoutes } from './modules/departments/routes.js';
import { DepartmentsService } from './modules/departments/service.js';
import { CourseOptions } from './modules/enrollment/courseOptions.js';
import { FilesRepository } from './modules/files/repository.js';
import { storageRoutes } from './modules/files/routes.js';
import { Storage } from './modules/files/storage.js';
import { GroupsRepository } from './modules/groups/repository.js';
import { groupsRoutes } from './modules/groups/routes.js';
import { GroupsService } from './modules/groups/service.js';
import { EnrollmentRepository } from './modules/enrollment/repository.js';
import { HomeRepository } from './modules/home/repository.js';
import { homeRoutes } from './modules/home/routes.js';
import { HomeService } from './modules/home/service.js';
import { menuRoutes } from './modules/menu/routes.js';
import { ProgressRepository } from './modules/progress/repository.js';
import { LearningEngine } from './modules/progress/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { usersRoutes } from './modules/users/routes.js';
import { UsersService } from './modules/users/service.js';
import { RecoveryRepository } from './modules/recovery/repository.js';
import { recoveryRoutes } from './modules/recovery/routes.js';
import { RecoveryService } from './modules/recovery/service.js';
import { systemRoutes } from './modules/system/routes.js';
import type { Clock } from './platform/clock.js';
import { installErrorHandler } from './platform/errorHandler.js';
import { HttpError, MESSAGES } from './platform/errors.js';
import { BackgroundMailer, createTransportDeliver, type Mailer } from './platform/mail/mailer.js';
import { RateLimiter } from './platform/rateLimit.js';
import { installSecurity, type RegisteredRoute } from './platform/security.js';

z.config(z.locales.ru());

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Key for CSRF tokens (see platform/secret.ts). */
  secret: string;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to SMTP or .eml files per config; tests pass a capturing one. */
  mailer?: Mailer;
}

export type App = FastifyInstance & { registeredRoutes: readonly RegisteredRoute[] };

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
    return503OnClosing: true,
    ...(deps.logger ? { logger: { ...(typeof deps.logger === 'object' ? deps.logger : {}), redact: REDACT } } : {}),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  // While closing, in-flight requests finish and new ones get 503 (SIGTERM in server.ts).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw new HttpError(503, MESSAGES.shuttingDown);
    }
  });
  // Keep-alive sockets of finished requests would hold close() open until they time out.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'"],
        frameSrc: ['https://www.youtube.com', 'https://rutube.ru', 'https://vk.com', 'https://vkvideo.ru'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  const mailer = deps.mailer ?? new BackgroundMailer(createTransportDeliver(config), app.log);
  app.addHook('onClose', () => mailer.idle());
  const mailContext = { companyName: config.companyName, publicUrl: config.publicUrl };

  const registeredRoutes: RegisteredRoute[] = [];
  const limiter = new RateLimiter(db.kysely);
  const auth = new AuthService(new AuthRepository(db.kysely), limiter, clock);
  const recovery = new RecoveryService(new RecoveryRepository(db.kysely), limiter, mailer, clock, secret, mailContext);
  installSecurity(app, { config, secret, auth, routes: registeredRoutes });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.companyName}: LMS API`, version: '0.1.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lms_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });

  await app.register(authRoutes({ auth, config, secret }));
  await app.register(menuRoutes);
  await app.register(recoveryRoutes(recovery));

  const courseOptions = new CourseOptions(db.kysely);
  await app.register(
    usersRoutes(
      new UsersService(
        new UsersRepository(db.kysely, db.kind === 'postgres'),
        courseOptions,
        mailer,
        clock,
        mailContext,
      ),
    ),
  );
  await app.register(
    departmentsRoutes(new DepartmentsService(new DepartmentsRepository(db.kysely), courseOptions, clock)),
  );
  await app.register(groupsRoutes(new GroupsService(new GroupsRepository(db.kysely), courseOptions, clock)));

  const enrollment = new EnrollmentRepository(db.kysely);
  const engine = new LearningEngine(new ProgressRepository(db.kysely), enrollment, clock);
  const catalogueRepo = new CatalogueRepository(db.kysely);
  await app.register(catalogueRoutes(new CatalogueService(catalogueRepo, engine, enrollment, clock)));
  await app.register(homeRoutes(new HomeService(new HomeRepository(db.kysely), catalogueRepo, engine, enrollment)));
  await app.register(systemRoutes({ config, routes: registeredRoutes }));
  await app.register(storageRoutes({ storage: new Storage(config.dataDir), files: new FilesRepository(db.kysely) }));

  const indexHtml = existsSync(join(config.webDist, 'index.html'));
  if (indexHtml) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: true, index: false });
    // The client's entry: '/' itself is a folder to the static plugin.
    app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const apiLike = /^\/(api|storage|docs|ziggy)(\/|$)/.test(url);
    if (indexHtml && request.method === 'GET' && !apiLike) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ result: { success: false, message: MESSAGES.notFound } });
  });

  return Object.assign(app, { registeredRoutes }) as unknown as App;
}
