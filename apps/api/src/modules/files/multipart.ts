import fastifyMultipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { HttpError, MESSAGES } from '../../platform/errors.js';

/**
 * What the multipart parser fails with is the request's doing: its limits carry their own status
 * (platform/errorHandler.ts); anything else (no boundary, a part cut short) is a request in a bad
 * format, 400, not a server error. busboy's own errors are plain `Error`s.
 */
export function malformedMultipart(error: unknown): unknown {
  if (error instanceof HttpError || typeof (error as { statusCode?: unknown }).statusCode === 'number') return error;
  return new HttpError(400, MESSAGES.badJson);
}

function answeringMalformed<T>(inner: AsyncIterableIterator<T>): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    next: () => inner.next().catch((error: unknown) => Promise.reject(malformedMultipart(error))),
    return: (value?: unknown) => inner.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * @fastify/multipart, with the parser's errors answered as the request's (`malformedMultipart`) by
 * every route that reads a multipart body: `request.file()`, `files()` and `parts()` of a multipart
 * request are wrapped before its handler runs.
 */
export async function registerMultipart(
  app: FastifyInstance,
  limits: { fileSize: number; files: number; fields: number },
): Promise<void> {
  await app.register(fastifyMultipart, { limits });
  app.addHook('preHandler', async (request) => {
    if (!request.isMultipart()) return;
    const { file, files, parts } = request;
    request.file = (options) =>
      file.call(request, options).catch((error: unknown) => Promise.reject(malformedMultipart(error)));
    request.files = (options) => answeringMalformed<MultipartFile>(files.call(request, options));
    request.parts = (options) => answeringMalformed<Multipart>(parts.call(request, options));
  });
}
