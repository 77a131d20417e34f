import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../db/connect.js';

/**
 * The process's metrics in Prometheus' text format (GET /metrics; docs/decisions.md §Health, metrics
 * and request ids). A registry per app: tests build many apps in one process, and prom-client's global
 * registry would hold one set of names for all of them. The services that count get this object (or
 * the one method they call) from `buildApp`; nothing counts through a module global.
 *
 * Every label has few values: a route's pattern (`/api/courses/:courseId`), never the address asked
 * for, whose ids and query strings would make a new series per request.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #durations: Histogram<'method' | 'route' | 'status'>;
  readonly #refusals: Counter<'route'>;
  readonly #queries: Histogram<'outcome'>;
  readonly #signInFailures: Counter<'method' | 'reason'>;
  readonly #reminderPasses: Counter<'outcome'>;
  readonly #reminderMails: Counter<'kind'>;
  readonly #mails: Counter<'outcome'>;
  readonly #idempotency: Counter<'outcome'>;
  #processMetrics = false;

  /**
   * `poolStats`: PostgreSQL's pool (null on SQLite); `queuedMails`: mails in the outbox not yet sent
   * nor given up, counted when scraped (a partial index holds only those).
   */
  constructor(sources: { poolStats?: () => PoolStats | null; queuedMails?: () => Promise<number> } = {}) {
    const { poolStats = () => null, queuedMails } = sources;
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'lms_http_requests_total',
      help: 'Answered requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#durations = new Histogram({
      name: 'lms_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#refusals = new Counter({
      name: 'lms_rate_limited_total',
      help: 'Requests refused by a rate limit or the full password-hashing queue (429, or the provider sign-in sent back to /login), by route pattern',
      labelNames: ['route'],
      registers,
    });
    this.#queries = new Histogram({
      name: 'lms_db_query_duration_seconds',
      help: 'Time of each database statement, by outcome (ok, error)',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.#signInFailures = new Counter({
      name: 'lms_sign_in_failures_total',
      help: 'Sign-ins refused after the check, by way in (password, ldap, oidc) and reason (as the journal keeps it)',
      labelNames: ['method', 'reason'],
      registers,
    });
    this.#reminderPasses = new Counter({
      name: 'lms_reminder_passes_total',
      help: 'Passes of deadline reminders and digests, by outcome (ok, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.#reminderMails = new Counter({
      name: 'lms_reminder_mails_total',
      help: 'Reminders and digests claimed and queued by the passes, by kind (reminder, digest)',
      labelNames: ['kind'],
      registers,
    });
    this.#mails = new Counter({
      name: 'lms_mail_deliveries_total',
      help: "The outbox's delivery tries, by outcome (sent; retry: failed, tried again later; failed: given up)",
      labelNames: ['outcome'],
      registers,
    });
    this.#idempotency = new Counter({
      name: 'lms_idempotent_requests_total',
      help: 'POSTs whose Idempotency-Key was used before: replayed (the stored answer), in_progress (refused with 409)',
      labelNames: ['outcome'],
      registers,
    });
    // Series of a few known values start at 0, so that a rate over them exists before the first event.
    for (const outcome of ['sent', 'retry', 'failed']) this.#mails.inc({ outcome }, 0);
    for (const outcome of ['ok', 'failed']) this.#reminderPasses.inc({ outcome }, 0);
    for (const kind of ['reminder', 'digest']) this.#reminderMails.inc({ kind }, 0);
    for (const outcome of ['replayed', 'in_progress']) this.#idempotency.inc({ outcome }, 0);
    this.#poolGauges(poolStats, registers);
    if (queuedMails) {
      new Gauge({
        name: 'lms_mail_queued',
        help: 'Mails in the outbox waiting for their first or next try (a backlog that grows: SMTP is down or slow)',
        registers,
        async collect() {
          // A database that does not answer must not take the rest of the scrape with it.
          this.set(await queuedMails().catch(() => Number.NaN));
        },
      });
    }
  }

  /** PostgreSQL's pool, read when scraped; SQLite has none, so these series are absent there. */
  #poolGauges(poolStats: () => PoolStats | null, registers: Registry[]): void {
    if (poolStats() === null) return;
    const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const stats = poolStats();
          if (stats) this.set(read(stats));
        },
      });
    gauge('lms_db_pool_connections', 'Database connections open (idle or in use)', (s) => s.open);
    gauge('lms_db_pool_idle_connections', 'Database connections open and idle', (s) => s.idle);
    gauge('lms_db_pool_waiting_queries', 'Queries waiting for a database connection', (s) => s.waiting);
    gauge('lms_db_pool_max_connections', 'Database connections the process opens at most', (s) => s.max);
  }

  /**
   * Memory, CPU, event-loop lag, GC and handles (prom-client's default metrics). Only where /metrics
   * is on: their event-loop and GC observers, once started, run for the rest of the process.
   */
  collectProcessMetrics(): void {
    if (this.#processMetrics) return;
    this.#processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.#requests.inc(labels);
    this.#durations.observe(labels, seconds);
    if (status === 429) this.rateLimited(route);
  }

  /** A request refused by a rate limit: a 429, or a sign-in through the provider sent back to the login page. */
  rateLimited(route: string): void {
    this.#refusals.inc({ route });
  }

  query(ms: number, failed: boolean): void {
    this.#queries.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000);
  }

  signInFailed(method: string, reason: string): void {
    this.#signInFailures.inc({ method, reason });
  }

  /** A pass of the reminders: what it claimed, or null when it failed. */
  reminderPass(claimed: { reminders: number; digests: number } | null): void {
    this.#reminderPasses.inc({ outcome: claimed ? 'ok' : 'failed' });
    if (!claimed) return;
    this.#reminderMails.inc({ kind: 'reminder' }, claimed.reminders);
    this.#reminderMails.inc({ kind: 'digest' }, claimed.digests);
  }

  mailTried(outcome: 'sent' | 'retry' | 'failed'): void {
    this.#mails.inc({ outcome });
  }

  idempotency(outcome: 'replayed' | 'in_progress'): void {
    this.#idempotency.inc({ outcome });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
