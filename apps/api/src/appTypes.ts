import type { AddressInfo } from 'node:net';
import type { PeopleBatch } from '@lms/contract';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { PassResult } from './modules/reminders/service.js';
import type { Clock } from './platform/clock.js';
import type { FileStore } from './platform/fileStore/fileStore.js';
import type { MailTransport, Mailer } from './platform/mail/mailer.js';
import type { RegisteredRoute } from './platform/security.js';

/** What `buildApp` (app.ts) is given and what it gives back. */

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Key for CSRF tokens (see platform/secret.ts). */
  secret: string;
  logger?: FastifyServerOptions['logger'];
  /** What delivers the outbox's mails: SMTP or .eml files per config by default; tests capture them. */
  mailTransport?: MailTransport;
  /** Where files live: the store STORAGE_URL names by default; tests pass a bucket of their own. */
  fileStore?: FileStore;
}

/** Work the server process runs on a timer (server.ts); tests call it with the injected clock. */
export interface BackgroundJobs {
  /** Finishes test attempts left open past their time; returns how many. */
  sweepExpiredAttempts(): Promise<number>;
  /** Deletes POSTs' idempotency keys older than their lifetime (a day); returns how many. */
  pruneIdempotencyKeys(): Promise<number>;
  /**
   * Rewrites learning states whose next recurrence cycle has opened and kept rankings that time has
   * overtaken, a transaction per batch until none is left; returns how many.
   */
  renewLearningStates(): Promise<number>;
  /**
   * Claims the deadline reminders and weekly digests that are due (each at most once) and queues
   * their mails in the outbox, which delivers them in the background.
   */
  remind(): Promise<PassResult>;
  /** The scheduled directory sync: a dry run, applied when it changes anything; returns its batch. */
  syncDirectory(): Promise<PeopleBatch>;
  /** Gives imported people waiting for an invitation a password and queues its mail; returns how many. */
  sendInvitations(): Promise<number>;
  /** A delivery pass of the outbox: due mails (new ones, retries, those a stopped process left). */
  deliverMail(): Promise<void>;
  /** Resolves when no delivery pass of this process is running (tests read the mails after it). */
  mailSettled(): Promise<void>;
}

export type App = FastifyInstance & {
  registeredRoutes: readonly RegisteredRoute[];
  jobs: BackgroundJobs;
  /** The first step of stopping (platform/drain.ts): the port closes, answers end their connections. */
  stopAccepting(): Promise<void>;
  /** The outbox every mail goes through (for scripts and tests that send one as a service would). */
  mailer: Mailer;
  /** Uploaded files and SCORM packages (a folder or a bucket). */
  fileStore: FileStore;
  /** The internal metrics listener's address (METRICS_PORT) once the app is ready; null without one. */
  metricsAddress(): AddressInfo | null;
};
