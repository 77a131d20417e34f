import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError, MESSAGES } from './errors.js';

const body = (message: string, errors?: Record<string, string[]>) => ({
  result: { success: false as const, message },
  ...(errors ? { errors } : {}),
});

/** Messages for the framework's own 4xx errors, which would otherwise be English. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: MESSAGES.badJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: MESSAGES.badJson,
  FST_ERR_CTP_BODY_TOO_LARGE: MESSAGES.tooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Неподдерживаемый тип содержимого',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: MESSAGES.badJson,
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
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(body(FRAMEWORK_MESSAGES[error.code] ?? BY_STATUS[status] ?? MESSAGES.badRequest));
    }
    if (status === 503) return reply.code(503).send(body(MESSAGES.shuttingDown));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(body(MESSAGES.internal));
  });
}
