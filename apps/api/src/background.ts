import type { App } from './app.js';
import type { Config } from './config.js';

/** Where periodic work is scheduled: Node's timers in the server, a test's hand in tests. */
export interface Timers {
  schedule(name: string, ms: number, run: () => void): unknown;
  cancel(handle: unknown): void;
}

/** Node's timers, unref'd: a scheduled pass never keeps the process alive on its own. */
export const nodeTimers: Timers = {
  schedule: (_name, ms, run) => setTimeout(run, ms).unref(),
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface JobLog {
  error(obj: object, msg: string): void;
}

/** The first reminder pass after start-up: soon, but not in the middle of the start itself. */
export const FIRST_REMINDER_PASS_MS = 30_000;
/** The first scheduled directory sync after start-up. */
export const FIRST_DIRECTORY_SYNC_MS = 60_000;
/** The outbox's pass for retries and for mails a stopped process left (new mails go at once). */
export const MAIL_PASS_MS = 30_000;
/** Expired attempts and learning states to renew. */
export const SWEEP_MS = 60_000;

/**
 * Runs `job` after `firstMs`, then `everyMs` after each run has ended, so that a long run is never
 * overlapped by the next one; a failure is logged and the schedule goes on. Returns a stop function.
 */
export function repeat(
  name: string,
  job: () => Promise<unknown>,
  opts: { firstMs: number; everyMs: number; timers: Timers; log: JobLog },
): () => void {
  let stopped = false;
  let handle: unknown;
  const next = (ms: number) => {
    handle = opts.timers.schedule(name, ms, () => {
      handle = undefined;
      void job()
        .catch((error: unknown) => opts.log.error({ err: error, job: name }, `${name} failed`))
        .finally(() => {
          if (!stopped) next(opts.everyMs);
        });
    });
  };
  next(opts.firstMs);
  return () => {
    stopped = true;
    if (handle !== undefined) opts.timers.cancel(handle);
  };
}

/**
 * The server's periodic work (server.ts): the attempt sweep and its companions (learning states, idempotency keys) every minute, the
 * outbox's pass at once and every 30 s, and — unless REMINDERS=off — the reminder pass 30 s after
 * start-up, then every REMINDERS_INTERVAL_MINUTES. Every pass is safe beside the same pass of
 * another process. Returns a function that stops the schedule.
 */
export function startBackgroundJobs(app: App, config: Config, timers: Timers = nodeTimers): () => void {
  const log = app.log;
  const stops = [
    repeat(
      'sweep',
      () =>
        Promise.all([
          // Attempts left open past their time are finished as of their expiry even if nobody comes back.
          app.jobs.sweepExpiredAttempts().catch((err: unknown) => log.error({ err }, 'attempt sweep failed')),
          // Learning states whose next recurrence cycle opened are rewritten (reads recompute them meanwhile).
          app.jobs.renewLearningStates().catch((err: unknown) => log.error({ err }, 'learning state renewal failed')),
          // A day-old idempotency key is new again anyway; deleting it keeps the table to a day of POSTs.
          app.jobs.pruneIdempotencyKeys().catch((err: unknown) => log.error({ err }, 'idempotency key prune failed')),
        ]),
      { firstMs: SWEEP_MS, everyMs: SWEEP_MS, timers, log },
    ),
    // Mails queued before a restart, or left by a process that stopped, go out at once.
    repeat('mail delivery pass', () => app.jobs.deliverMail(), { firstMs: 0, everyMs: MAIL_PASS_MS, timers, log }),
    // Imported people's invitations, after their import committed (a password hash each).
    repeat('invitation pass', () => app.jobs.sendInvitations(), { firstMs: 0, everyMs: MAIL_PASS_MS, timers, log }),
  ];
  if (config.directory && config.directory.intervalMs > 0) {
    // A minute after start-up (not during it), then every LDAP_SYNC_INTERVAL_MINUTES.
    stops.push(
      repeat('directory sync', () => app.jobs.syncDirectory(), {
        firstMs: FIRST_DIRECTORY_SYNC_MS,
        everyMs: config.directory.intervalMs,
        timers,
        log,
      }),
    );
  }
  if (config.reminders.enabled) {
    stops.push(
      repeat('reminder pass', () => app.jobs.remind(), {
        firstMs: FIRST_REMINDER_PASS_MS,
        everyMs: config.reminders.intervalMs,
        timers,
        log,
      }),
    );
  }
  return () => {
    for (const stop of stops) stop();
  };
}
