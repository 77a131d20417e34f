import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SECOND, type Clock } from './clock.js';

/**
 * Health and readiness for balancers and orchestrators (docs/decisions.md §Health, metrics and request
 * ids). `/healthz`: the process answers (liveness; touches nothing). `/readyz`: this process should be
 * sent requests — it is not stopping, its database answers and has every migration this code knows,
 * and its file store takes a write. Each check has `timeoutMs`, so a hung database or bucket gives a
 * 503 within it instead of a probe that never returns. The answer names each check and its state,
 * never an error's text (it may name hosts or buckets): the log has those, once per change.
 */

const CHECK_STATES = ['ok', 'failed', 'timeout', 'pending', 'stopping', 'skipped'] as const;
type CheckState = (typeof CHECK_STATES)[number];
const state = z.enum(CHECK_STATES);

export const readyzResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    /** 'stopping' from the moment the process begins to stop (SIGTERM): the other checks are skipped. */
    accepting: state,
    /** Whether a trivial statement runs. */
    database: state,
    /** 'pending' while the database lacks a migration of this code (a deploy that did not migrate). */
    migrations: state,
    /** The store's probe: a small object written, read back and removed. */
    storage: state,
  }),
});
export type ReadinessReport = z.infer<typeof readyzResponse>;

export const healthzResponse = z.object({ status: z.literal('ok') });

/**
 * A successful storage probe stands this long: on a bucket each probe is three paid requests, and
 * balancers ask every second or two. A failed one is probed again at the next check.
 */
export const STORAGE_PROBE_KEPT_MS = 10 * SECOND;

export interface ReadinessDeps {
  /** Resolves when the database answers a trivial statement. */
  ping(): Promise<unknown>;
  /** The migrations the database lacks (db/migrate.ts `pendingMigrations`). */
  pendingMigrations(): Promise<string[]>;
  /** The file store's probe (platform/fileStore). */
  probeStorage(): Promise<void>;
  /** Whether the process has begun to stop (platform/drain.ts). */
  stopping(): boolean;
  timeoutMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

type Settled<T> = { ok: true; value: T } | { ok: false; state: 'failed' | 'timeout'; error: unknown };

/** `work`'s outcome, or 'timeout' once `ms` pass; the work itself is left to finish or fail alone. */
async function within<T>(ms: number, work: () => Promise<T>): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, state: 'timeout', error: `no answer within ${ms} ms` }), ms);
    timer.unref();
  });
  // A store that throws before its promise is a failed check too, not a 500 of the probe.
  const done = new Promise<T>((resolve) => resolve(work())).then(
    (value): Settled<T> => ({ ok: true, value }),
    (error: unknown): Settled<T> => ({ ok: false, state: 'failed', error }),
  );
  try {
    return await Promise.race([done, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const STOPPING: ReadinessReport = {
  status: 'not_ready',
  checks: { accepting: 'stopping', database: 'skipped', migrations: 'skipped', storage: 'skipped' },
};

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class Readiness {
  /** The check under way: balancers asking at once share it (it ends within the timeout). */
  #running: Promise<ReadinessReport> | undefined;
  #storageOkUntil = Number.NEGATIVE_INFINITY;
  #wasReady: boolean | undefined;

  constructor(private readonly deps: ReadinessDeps) {}

  async check(): Promise<ReadinessReport> {
    if (this.deps.stopping()) return STOPPING;
    this.#running ??= this.#check().finally(() => (this.#running = undefined));
    const report = await this.#running;
    // Stopping may have begun while the checks ran.
    return this.deps.stopping() ? STOPPING : report;
  }

  async #check(): Promise<ReadinessReport> {
    const problems: Record<string, string> = {};
    const [db, storage] = await Promise.all([this.#database(problems), this.#storage(problems)]);
    const checks = { accepting: 'ok' as const, ...db, storage };
    const ready = Object.values(checks).every((s) => s === 'ok');
    this.#logChange(ready, checks, problems);
    return { status: ready ? 'ready' : 'not_ready', checks };
  }

  async #database(problems: Record<string, string>): Promise<{ database: CheckState; migrations: CheckState }> {
    const reached = { database: false };
    const result = await within(this.deps.timeoutMs, async () => {
      await this.deps.ping();
      reached.database = true;
      return this.deps.pendingMigrations();
    });
    if (result.ok) {
      if (result.value.length === 0) return { database: 'ok', migrations: 'ok' };
      problems.migrations = `not applied: ${result.value.join(', ')}`;
      return { database: 'ok', migrations: 'pending' };
    }
    if (reached.database) {
      problems.migrations = reason(result.error);
      return { database: 'ok', migrations: result.state };
    }
    problems.database = reason(result.error);
    return { database: result.state, migrations: 'skipped' };
  }

  async #storage(problems: Record<string, string>): Promise<CheckState> {
    if (this.deps.clock.now().getTime() < this.#storageOkUntil) return 'ok';
    const result = await within(this.deps.timeoutMs, () => this.deps.probeStorage());
    if (result.ok) {
      this.#storageOkUntil = this.deps.clock.now().getTime() + STORAGE_PROBE_KEPT_MS;
      return 'ok';
    }
    problems.storage = reason(result.error);
    return result.state;
  }

  /** Once per change, not per probe: a balancer asks every few seconds. */
  #logChange(ready: boolean, checks: ReadinessReport['checks'], problems: Record<string, string>): void {
    if (ready === this.#wasReady) return;
    const first = this.#wasReady === undefined;
    this.#wasReady = ready;
    if (!ready) this.deps.log.warn({ checks, problems }, 'not ready: /readyz answers 503');
    else if (!first) this.deps.log.info({ checks }, 'ready again: /readyz answers 200');
  }
}

/** Public (no session), outside /api, answered while stopping; their access lines are at debug. */
const OPS = { access: 'public', accessLog: 'debug', answersWhileStopping: true } as const;

export const healthRoutes =
  (readiness: Readiness): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/healthz',
      {
        config: OPS,
        schema: {
          tags: ['ops'],
          summary: 'Liveness: the process answers (nothing else is checked)',
          response: { 200: healthzResponse },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: OPS,
        schema: {
          tags: ['ops'],
          summary: 'Readiness: not stopping, database reachable and migrated, file store writable; 503 otherwise',
          response: { 200: readyzResponse, 503: readyzResponse },
        },
      },
      async (_request, reply) => {
        const report = await readiness.check();
        return reply.code(report.status === 'ready' ? 200 : 503).send(report);
      },
    );
  };
