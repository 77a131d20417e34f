import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload over its limit (answered 413). */
export class TooLarge extends Error {}

/**
 * A request's file streamed to `path` (owner-only), never held in memory; more than `maxBytes`
 * stops it with `TooLarge`. Returns the bytes written.
 */
export async function receiveFile(stream: Readable, path: string, maxBytes: number): Promise<number> {
  let size = 0;
  // What the request's stream fails with is the request's doing: the parser emits 'error' on a part
  // cut short without ending it, so the error is made the stream's own (modules/files/uploads.ts).
  stream.once('error', (error) => stream.destroy(error));
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(new TooLarge());
      else done(null, chunk);
    },
  });
  await pipeline(stream, counter, createWriteStream(path, { mode: 0o600 }));
  // The multipart parser stops at its own limit (one byte over ours) and marks the part truncated.
  if ((stream as Readable & { truncated?: boolean }).truncated) throw new TooLarge();
  return size;
}
