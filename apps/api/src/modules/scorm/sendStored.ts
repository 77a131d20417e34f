import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpenedObject } from '../../platform/fileStore/fileStore.js';

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `size`; null when there is none or several. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return 'invalid';
  let start: number;
  let end: number;
  if (from === '') {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

/**
 * A package's file from the file store, as a static file server would send it: its type by
 * extension, a validator for the browser's cache, and single byte ranges (video and audio seek).
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  file: OpenedObject,
  path: string,
): Promise<FastifyReply> {
  const etag = `W/"${file.size.toString(16)}-${file.modifiedAt.getTime().toString(16)}"`;
  const range = byteRange(request.headers.range, file.size);
  // The bytes are asked for before any header is set: a store that fails now answers its own error.
  const fresh = request.headers['if-none-match'] === etag;
  const body = fresh || range === 'invalid' ? null : await file.stream(range ?? undefined);
  reply
    .type(send.mime.getType(path) ?? 'application/octet-stream')
    .header('etag', etag)
    .header('last-modified', file.modifiedAt.toUTCString())
    .header('accept-ranges', 'bytes');
  if (fresh) return reply.code(304).send();
  if (range === 'invalid') {
    return reply.code(416).header('content-range', `bytes */${file.size}`).send();
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', range.end - range.start + 1);
    return reply.send(body);
  }
  reply.header('content-length', file.size);
  return reply.send(body);
}
