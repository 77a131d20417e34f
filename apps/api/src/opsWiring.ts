import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { pendingMigrations } from './db/migrate.js';
import type { Clock } from './platform/clock.js';
import type { FileStore } from './platform/fileStore/fileStore.js';
import { Readiness, healthRoutes } from './platform/health.js';
import type { AppMetrics } from './platform/metrics.js';
import { metricsRoute, metricsServer } from './platform/metricsEndpoint.js';

/** The route label of requests no route matched (the 404 handler, the web client's pages). */
const UNMATCHED = '(unmatched)';

/**
 * What balancers, orchestrators and Prometheus call, for `buildApp` (issue 36; docs/decisions.md
 * §Health, metrics and request ids): GET /healthz and /readyz, GET /metrics on the main port
 * (METRICS_TOKEN) and on a listener of its own (METRICS_PORT), and the request and query times the
 * metrics count. Returns the internal listener's address (once the app is ready).
 */
export async function registerOps(
  app: FastifyInstance,
  deps: { config: Config; db: Db; clock: Clock; store: FileStore; metrics: AppMetrics; stopping: () => boolean },
): Promise<{ metricsAddress(): AddressInfo | null }> {
  const { config, db, metrics } = deps;
  const readiness = new Readiness({
    ping: () => sql`select 1`.execute(db.kysely),
    pendingMigrations: () => pendingMigrations(db.kysely, db.kind),
    probeStorage: () => deps.store.probe(),
    stopping: deps.stopping,
    timeoutMs: config.readyTimeoutMs,
    clock: deps.clock,
    log: app.log,
  });
  await app.register(healthRoutes(readiness));

  const stopTiming = db.onQueryTime((ms, failed) => metrics.query(ms, failed));
  app.addHook('onClose', async () => stopTiming());
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  const { token, listener } = config.metrics;
  await app.register(metricsRoute(metrics, token));
  if (token !== undefined || listener !== null) metrics.collectProcessMetrics();
  if (listener === null) return { metricsAddress: () => null };

  const server = metricsServer(metrics, app.log);
  // With the app (`listen` readies it first): a port already taken stops the start, as PORT's would.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listener.port, listener.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    app.log.info({ address: server.address() }, 'metrics listening');
  });
  // Last, once the drain is over: Prometheus may watch it. A scrape cut here is retried by Prometheus
  // against the next process; no person's request travels on this port.
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  });
  return { metricsAddress: () => server.address() as AddressInfo | null };
}
