import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The level of the route's access line: 'debug' for what balancers and Prometheus call every few
     * seconds (health checks, metrics), which would otherwise bury the people's requests at info.
     */
    accessLog?: 'debug';
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a balancer's id may look like to be kept: HAProxy's `unique-id-format`, nginx's `$request_id`,
 * a UUID. Anything else (long, spaces, quotes, control characters) would let a client write into the
 * logs what it likes, so it is replaced.
 */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's `genReqId`: behind a balancer (TRUST_PROXY), its `X-Request-Id` when it is a short safe
 * token, so that one request is found by the same id in the balancer's log and in ours; otherwise a
 * new UUID (unique across processes, unlike Fastify's per-process counter). Without a balancer the
 * header could only come from the client, which is not to choose how its requests are filed.
 */
export function requestIds(behindProxy: boolean): (req: IncomingMessage) => string {
  if (!behindProxy) return () => randomUUID();
  return (req) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  };
}

/**
 * The request id on every answer (`X-Request-Id`), and one access line per answered request
 * (docs/decisions.md §Logs): method, address, status, milliseconds, with the request id and, once the
 * session was resolved, the user id as the logger's bindings (platform/security.ts). At debug, a
 * request is also logged as it arrives: what an operator looks for when one never ends.
 */
/**
 * The address as logged: a capability route's token (a SCORM launch, valid for hours, which lets
 * whoever holds it write that learner's run) is not kept in logs that many people read.
 */
function loggedUrl(request: FastifyRequest): string {
  const token = (request.params as { token?: unknown } | undefined)?.token;
  if (request.routeOptions.config?.capability === true && typeof token === 'string' && token !== '')
    return request.url.split(token).join('…');
  // No route matched (a package's link out of its folder): the segment after the prefix is a token.
  return request.url.replace(/^\/scorm-content\/[^/?#]+/, '/scorm-content/…');
}

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    // Set first, so that every answer has it, refusals of later hooks included.
    reply.header(REQUEST_ID_HEADER, request.id);
    request.log.debug({ method: request.method, url: loggedUrl(request) }, 'incoming');
  });
  app.addHook('onResponse', async (request, reply) => {
    const level = request.routeOptions.config?.accessLog ?? 'info';
    request.log[level](
      { method: request.method, url: loggedUrl(request), status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
}
