import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text already made (a buffer, or chunks streamed as they are produced): the route's
 * response schema, which documents the answer, is not applied to it again.
 */
export function sendJsonText(reply: FastifyReply, text: Buffer | Iterable<Buffer>) {
  return reply.type('application/json; charset=utf-8').send(Buffer.isBuffer(text) ? text : Readable.from(text));
}
