import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, MESSAGES } from './errors.js';
import { securityHeaders } from './securityHeaders.js';

const body = (message: string, errors?: Record<string, string[]>) => ({
  result: { success: false as const, message },
  ...(errors ? { errors } : {}),
});

/**
 * The framework's own errors (Fastify's FST_ERR_*, @fastify/multipart's FST_*) that a request can
 * cause, with the status and the Russian message they are answered with; their own are English. The
 * others (FST_ERR_VALIDATION aside, answered by the zod branch) come from the code, not the request,
 * and stay a 500.
 */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: MESSAGES.badUrl },
  FST_ERR_INVALID_URL: { status: 400, message: MESSAGES.badUrl },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: MESSAGES.urlTooLong },
  FST_ERR_NOT_FOUND: { status: 404, message: MESSAGES.notFound },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: MESSAGES.badJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: MESSAGES.badJson },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: MESSAGES.badJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: MESSAGES.tooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: MESSAGES.unsupportedMediaType },
  FST_ERR_HANDLER_TIMEOUT: { status: 503, message: MESSAGES.requestTimeout },
  // @fastify/multipart
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: MESSAGES.unsupportedMediaType },
  FST_INVALID_JSON_FIELD_ERROR: { status: 400, message: MESSAGES.badJson },
  FST_PROTO_VIOLATION: { status: 400, message: MESSAGES.badJson },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: MESSAGES.tooLarge },
  FST_PARTS_LIMIT: { status: 413, message: MESSAGES.tooLarge },
  FST_FILES_LIMIT: { status: 413, message: MESSAGES.tooLarge },
  FST_FIELDS_LIMIT: { status: 413, message: MESSAGES.tooLarge },
};

const BY_STATUS: Record<number, string> = {
  401: MESSAGES.unauthenticated,
  403: MESSAGES.forbidden,
  404: MESSAGES.notFound,
  413: MESSAGES.tooLarge,
  422: MESSAGES.validation,
};

/** A race that the service checks missed: the database's unique constraint still answers 422. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** A referenced row deleted between the service's check and the write. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** One error shape for the whole API: `{ result: { success: false, message } }` (+ `errors` on 422). */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // An answer for a failure elsewhere (the file store down) keeps its cause for the operator.
      if (error.cause !== undefined) request.log.error({ err: error }, 'request failed');
      return reply.code(error.statusCode).send(body(error.message, error.errors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        (errors[field] ??= []).push(v.message ?? MESSAGES.validation);
      }
      const first = Object.values(errors)[0]?.[0] ?? MESSAGES.validation;
      return reply.code(422).send(body(first, errors));
    }
    if (isUniqueViolation(error)) {
      return reply.code(422).send(body(MESSAGES.duplicate));
    }
    if (isForeignKeyViolation(error)) {
      return reply.code(422).send(body(MESSAGES.staleReference));
    }
    const known = FRAMEWORK_ERRORS[error.code];
    if (known) return reply.code(known.status).send(body(known.message));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(body(BY_STATUS[status] ?? MESSAGES.badRequest));
    if (status === 503) return reply.code(503).send(body(MESSAGES.shuttingDown));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(body(MESSAGES.internal));
  });
}

/**
 * Fastify's `frameworkErrors`: the errors it answers before any route or hook runs (a URL that does
 * not decode, a parameter over `maxParamLength`), in the same format and with the headers every
 * answer has.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = FRAMEWORK_ERRORS[error.code] ?? { status: 500, message: MESSAGES.internal };
  if (known.status >= 500) reply.log.error({ err: error }, 'request failed');
  void reply.headers(EVERY_ANSWER).code(known.status).send(body(known.message));
}

const EVERY_ANSWER = { ...securityHeaders(), 'cache-control': 'no-store' };

/**
 * Node's `clientError`: what its HTTP parser refuses (a broken request line or header, headers over
 * the limit, a request that took too long) never reaches Fastify. Answered in the API's format on
 * the socket, which then closes (the parser cannot go on after the error).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, MESSAGES.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, MESSAGES.requestTimeout]
        : [400, MESSAGES.badRequest];
  const json = JSON.stringify(body(message));
  if (socket.writable) {
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${json}`);
  }
  socket.destroy();
}
