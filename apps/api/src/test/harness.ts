import { learningStatesOver } from '../modules/progress/standalone.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoleCode } from '@lms/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp, type App } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { prepareDatabase } from '../bootstrap.js';
import { migrateTo } from '../db/migrate.js';
import { ManualClock } from '../platform/clock.js';
import type { FileStore } from '../platform/fileStore/fileStore.js';
import { createFileStore } from '../platform/fileStore/fromConfig.js';
import type { MailTransport } from '../platform/mail/mailer.js';
import { hashPassword } from '../platform/passwords.js';
import { CapturingTransport } from './mail.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const dialectName = TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestContext {
  app: App;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** What the app's outbox delivered (the real outbox, on the test's database). */
  mailer: CapturingTransport;
  close(): Promise<void>;
}

/** A fresh database: SQLite in memory, or a new schema on TEST_DATABASE_URL that is dropped afterwards. */
let queryListener: ((sql: string) => void) | undefined;
const onQuery = (sql: string) => queryListener?.(sql);

/** The SQL of every statement the test databases executed while `run` ran. */
export async function queriesDuring(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  queryListener = (sql) => seen.push(sql);
  try {
    await run();
  } finally {
    queryListener = undefined;
  }
  return seen;
}

/**
 * Until a PostgreSQL backend is blocked by the one with `holderPid`, polling between turns of the event
 * loop: a concurrency test may release its holder only once the contender is known to wait on it
 * (and not on another test's transaction), or else it proves nothing. Stops early, returning false,
 * once `stop()` holds — for tests that check a writer does not wait; without it, it polls until blocked.
 */
export async function untilBlockedBy(db: Db, holderPid: number, stop: () => boolean = () => false): Promise<boolean> {
  while (!stop()) {
    const waiting =
      await sql`select 1 from pg_stat_activity where ${holderPid}::int = any(pg_blocking_pids(pid))`.execute(db.kysely);
    if (waiting.rows.length > 0) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

export async function createTestDb(): Promise<{ db: Db; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) {
    const db = connect({ sqliteFile: ':memory:', onQuery });
    return { db, drop: () => db.close() };
  }
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = connect({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, onQuery });
  return {
    db,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    logger?: Parameters<typeof buildApp>[0]['logger'];
    beforeReady?: (app: App) => void;
    /** Deliver through the configured transport (MAIL_HOST: a test's SMTP server) instead of capturing. */
    configTransport?: boolean;
    /** Deliver through this transport instead of capturing (one that refuses, for the metrics). */
    mailTransport?: MailTransport;
    /** The store the app gets, made from the one the config names (e.g. with another probe). */
    fileStore?: (configured: FileStore) => FileStore;
    /** The last migration applied: an older schema than the code's (readiness). */
    migratedTo?: string;
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    COMPANY_NAME: 'Тестовая компания',
    LOGIN_DOMAIN: 'example.com',
    WEB_DIST: join(dataDir, 'no-web'),
    ...env,
  });
  const { db, drop } = await createTestDb();
  if (opts.migratedTo) await migrateTo(db.kysely, db.kind, opts.migratedTo, db.schema);
  else await prepareDatabase(db);
  const clock = new ManualClock();
  const mailer = new CapturingTransport();
  const app = await buildApp({
    config,
    db,
    clock,
    mailTransport: opts.configTransport ? undefined : (opts.mailTransport ?? mailer),
    secret: 'test-secret-0123456789-0123456789',
    logger: opts.logger,
    fileStore: opts.fileStore?.(createFileStore(config)),
  });
  mailer.settleWith(() => app.jobs.mailSettled());
  opts.beforeReady?.(app);
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    mailer,
    close: async () => {
      await app.close();
      // A test may have closed the database already: closing again changes nothing.
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const DEFAULT_PASSWORD = 'Secret-pass-1';

export async function createUser(
  db: Db,
  input: {
    role: RoleCode;
    email?: string;
    password?: string;
    first_name?: string;
    last_name?: string;
    department_id?: number | null;
  },
) {
  const role = await db.kysely
    .selectFrom('roles')
    .select('id')
    .where('code', '=', input.role)
    .executeTakeFirstOrThrow();
  const email = (input.email ?? `${input.role}-${Math.random().toString(36).slice(2, 8)}@example.com`).toLowerCase();
  const row = await db.kysely
    .insertInto('users')
    .values({
      first_name: input.first_name ?? 'Иван',
      last_name: input.last_name ?? 'Петров',
      email,
      password_hash: await hashPassword(input.password ?? DEFAULT_PASSWORD),
      role_id: role.id,
      department_id: input.department_id ?? null,
      // Before the test clock's start, as if the account existed already.
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Written past the services: the maintained enrollments follow the department's courses here.
  if (input.department_id) await learningStatesOver({ db: db.kysely }).enrollment.refresh({ userIds: [row.id] });
  return { id: row.id, email, password: input.password ?? DEFAULT_PASSWORD };
}

type Body = InjectOptions['payload'];

/** A browser-like client over app.inject: keeps cookies and echoes the CSRF token as axios does. */
export class Client {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: App) {}

  private absorb(res: LightMyRequestResponse): void {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now() && c.value === '');
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(method: InjectOptions['method'], url: string, payload?: Body, headers: Record<string, string> = {}) {
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(String(method));
    if (unsafe && !this.cookies.has('XSRF-TOKEN')) await this.request('GET', '/api/check-auth');
    const res = await this.app.inject({
      method,
      url,
      payload,
      cookies: Object.fromEntries(this.cookies),
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        ...(unsafe ? { 'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '' } : {}),
        ...headers,
      },
    });
    this.absorb(res);
    // Mails the request queued are delivered in the background: the next step of a test sees them,
    // as a person would find them in their mailbox a moment later.
    await this.app.jobs.mailSettled();
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: Body, headers?: Record<string, string>) => this.request('POST', url, body ?? {}, headers);
  put = (url: string, body?: Body, headers?: Record<string, string>) => this.request('PUT', url, body ?? {}, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);

  async signIn(email: string, password = DEFAULT_PASSWORD, remember = false) {
    const res = await this.post('/login', { login: email, password, remember });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    return res;
  }
}

/** A signed-in client of a new user with the given role. */
export async function clientAs(
  ctx: TestContext,
  role: RoleCode,
  extra: Parameters<typeof createUser>[1] extends infer T ? Partial<T> : never = {},
) {
  const user = await createUser(ctx.db, { role, ...extra });
  const client = new Client(ctx.app);
  await client.signIn(user.email, user.password);
  return { client, user };
}

export async function createCourse(
  db: Db,
  title = `Курс ${Math.random().toString(36).slice(2, 7)}`,
  extra: { category_id?: number | null; is_published?: boolean } = {},
) {
  const row = await db.kysely
    .insertInto('courses')
    .values({ title, category_id: extra.category_id ?? null, is_published: extra.is_published ?? true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createDepartment(db: Db, name = `Отдел ${Math.random().toString(36).slice(2, 7)}`) {
  const row = await db.kysely
    .insertInto('departments')
    .values({ name, sort_order: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function roleId(db: Db, code: RoleCode) {
  return (await db.kysely.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}

/** A module with published lessons and tests, for progress fixtures. */
export async function createModuleWith(
  db: Db,
  courseId: number,
  spec: { lessons?: number; tests?: number; unpublishedLessons?: number; name?: string } = {},
) {
  const mod = await db.kysely
    .insertInto('modules')
    .values({ course_id: courseId, name: spec.name ?? 'Модуль 1', is_published: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const lessonIds: number[] = [];
  const testIds: number[] = [];
  for (let i = 0; i < (spec.lessons ?? 0) + (spec.unpublishedLessons ?? 0); i++) {
    const row = await db.kysely
      .insertInto('lessons')
      .values({ module_id: mod.id, name: `Урок ${i + 1}`, is_published: i < (spec.lessons ?? 0), sort_order: i })
      .returning('id')
      .executeTakeFirstOrThrow();
    lessonIds.push(row.id);
  }
  for (let i = 0; i < (spec.tests ?? 0); i++) {
    const row = await db.kysely
      .insertInto('tests')
      .values({ module_id: mod.id, name: `Тест ${i + 1}`, is_published: true, sort_order: 100 + i })
      .returning('id')
      .executeTakeFirstOrThrow();
    testIds.push(row.id);
  }
  // Written past the services: the maintained learning state follows the published items here.
  await learningStatesOver({ db: db.kysely }).states.refresh({ courseIds: [courseId] });
  return { moduleId: mod.id, lessonIds, testIds };
}

export async function recordLesson(
  db: Db,
  userId: number,
  lessonId: number,
  startedAt: string | null,
  completedAt: string | null,
) {
  await db.kysely
    .insertInto('lesson_progress')
    .values({ user_id: userId, lesson_id: lessonId, started_at: startedAt, completed_at: completedAt })
    .execute();
  await learningStatesOver({ db: db.kysely }).states.refresh({ userIds: [userId] });
}

export async function recordAttempt(
  db: Db,
  userId: number,
  testId: number,
  n: number,
  finishedAt: string,
  passed: boolean,
) {
  await db.kysely
    .insertInto('test_attempts')
    .values({
      user_id: userId,
      test_id: testId,
      attempt_number: n,
      started_at: new Date(new Date(finishedAt).getTime() - 60_000).toISOString(),
      finished_at: finishedAt,
      open_marker: null,
      question_order: '[]',
      answer_order: '{}',
      score: passed ? 100 : 0,
      correct_answers: passed ? 1 : 0,
      is_passed: passed,
    })
    .execute();
  await learningStatesOver({ db: db.kysely }).states.refresh({ userIds: [userId] });
}
