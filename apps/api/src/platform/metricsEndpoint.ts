import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, notFound, unauthorized } from './errors.js';
import type { AppMetrics } from './metrics.js';
import { safeEqual, sha256 } from './tokens.js';

/** Whether `Authorization` carries `token` as a Bearer token; compared in constant time (as hashes of one length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return given !== undefined && safeEqual(sha256(given), sha256(token));
}

/**
 * GET /metrics on the main port: open to `Authorization: Bearer <METRICS_TOKEN>` only (401 otherwise);
 * without METRICS_TOKEN it does not exist there (404), whether or not the internal listener serves it.
 * Out of the OpenAPI reference: it is Prometheus' text, not the API's JSON.
 */
export const metricsRoute =
  (metrics: AppMetrics, token: string | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/metrics',
      { config: { access: 'public', accessLog: 'debug' }, schema: { hide: true } },
      async (request, reply) => {
        if (token === undefined) throw notFound();
        if (!bearerMatches(request.headers.authorization, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw unauthorized();
        }
        return reply.type(metrics.contentType).send(await metrics.text());
      },
    );
  };

const NOT_FOUND = JSON.stringify({ result: { success: false, message: MESSAGES.notFound } });

/**
 * The internal listener (METRICS_PORT): GET /metrics and nothing else, without a token — its address
 * (loopback by default) is what protects it. A plain Node server: none of the app's hooks, sessions
 * or routes are reachable through it.
 */
export function metricsServer(metrics: AppMetrics, log: FastifyBaseLogger): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && path === '/metrics') {
      metrics.text().then(
        (body) => {
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (err: unknown) => {
          log.error({ err }, 'metrics could not be collected');
          res.writeHead(500).end();
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(NOT_FOUND);
  });
}
