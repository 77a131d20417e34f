import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { CONSTRUCTOR_MESSAGES as M, cleanFileName } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { HttpError, MESSAGES, unprocessable } from '../../platform/errors.js';
import { UPLOADS_PREFIX, type FileStore } from '../../platform/fileStore/fileStore.js';
import type { FilesRepository } from './repository.js';

/** Image types accepted by content (magic bytes), whatever the name or the declared type say. */
const IMAGE_SIGNATURES: { mime: string; ext: string; test: (head: Buffer) => boolean }[] = [
  { mime: 'image/jpeg', ext: '.jpg', test: (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  {
    mime: 'image/png',
    ext: '.png',
    test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mime: 'image/gif', ext: '.gif', test: (h) => /^GIF8[79]a/.test(h.subarray(0, 6).toString('latin1')) },
  {
    mime: 'image/webp',
    ext: '.webp',
    test: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];
const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp']);
const HEAD_BYTES = 16;

export function sniffImage(head: Buffer): { mime: string; ext: string } | undefined {
  return IMAGE_SIGNATURES.find((s) => s.test(head));
}

export interface UploadRequest {
  stream: Readable;
  originalName: string;
  /** Folder under storage/ (e.g. 'lessons', 'courses'). */
  folder: string;
  kind: 'image' | 'file';
  maxBytes: number;
  userId: number;
  /** Checked after the bytes arrived and before the file is kept (e.g. the lesson still exists). */
  beforeKeep?: () => Promise<void>;
}

export interface StoredUpload {
  file_path: string;
  original_filename: string;
  mime: string;
  size: number;
}

class TooLarge extends Error {}
class NotAnImage extends Error {}

/** The first bytes of a stream, and the stream going on from them (nothing lost, nothing read twice). */
async function peek(source: Readable, bytes: number): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const rest = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  let replayed = false;
  return {
    head,
    rest: {
      next: async () => {
        if (!replayed && head.length > 0) {
          replayed = true;
          return { done: false, value: head };
        }
        return rest.next();
      },
      return: async () => (await rest.return?.()) ?? { done: true, value: undefined },
    },
  };
}

/**
 * Uploads (docs/rules.md §Uploads): the first bytes are read to know what the file is (images by
 * content), then the whole is streamed to the file store under a random name, counted against the
 * limit on the way; the database row is written last, and an upload that fails or is aborted leaves
 * nothing behind (the store keeps nothing of a body that failed).
 */
export class Uploads {
  constructor(
    private readonly store: FileStore,
    private readonly uow: UnitOfWork,
    private readonly files: FilesRepository,
    private readonly clock: Clock,
  ) {}

  async save(req: UploadRequest): Promise<StoredUpload> {
    // What the request's stream fails with is the request's doing (a form cut short), not the server's.
    // The parser reports a part cut short by emitting 'error' on it without ending or destroying it,
    // and a reader started later would wait for ever: the error is made the stream's own.
    let inputError: unknown;
    req.stream.once('error', (error) => {
      inputError = error;
      req.stream.destroy(error);
    });
    let key: string | undefined;
    let release: (() => Promise<unknown>) | undefined;
    try {
      // A part already torn down (cut short before it was read) has nothing to give.
      if (req.stream.destroyed) throw new HttpError(400, MESSAGES.badJson);
      const { head, rest } = await peek(req.stream, HEAD_BYTES);
      release = () => rest.return?.() ?? Promise.resolve();
      const image = sniffImage(head);
      if (req.kind === 'image' && !image) throw new NotAnImage();
      if (head.length > req.maxBytes) throw new TooLarge();
      const ext = this.extension(req.originalName, image?.ext);
      const relative = `${req.folder}/${randomBytes(16).toString('hex')}${ext}`;
      let size = 0;
      const limited = Readable.from(
        (async function* () {
          try {
            for (let next = await rest.next(); !next.done; next = await rest.next()) {
              size += next.value.length;
              if (size > req.maxBytes) throw new TooLarge();
              yield next.value;
            }
          } finally {
            await rest.return?.();
          }
        })(),
      );
      key = `${UPLOADS_PREFIX}${relative}`;
      await this.store.write(key, limited, { contentType: image?.mime });
      if ((req.stream as Readable & { truncated?: boolean }).truncated) throw new TooLarge();
      await req.beforeKeep?.();
      const originalName = cleanFileName(req.originalName, `file${ext}`);
      const mime = image?.mime ?? 'application/octet-stream';
      await this.uow.run(() =>
        this.files.insert(
          { path: relative, original_filename: originalName, mime, size, uploaded_by: req.userId },
          iso(this.clock.now()),
        ),
      );
      return { file_path: relative, original_filename: originalName, mime, size };
    } catch (error) {
      if (key) await this.store.remove(key).catch(() => undefined);
      // A body refused before it was streamed is torn down, as one refused on the way is.
      await release?.().catch(() => undefined);
      // The rest of the request body is not read: the client gets its answer at once.
      req.stream.resume();
      if (error instanceof TooLarge) {
        throw new HttpError(413, req.kind === 'image' ? M.imageTooLarge : M.fileTooLarge);
      }
      if (error instanceof NotAnImage) throw unprocessable(M.badImage, { image: [M.badImage] });
      if (error instanceof HttpError) throw error;
      if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') throw unprocessable(M.uploadAborted);
      if (inputError !== undefined) throw new HttpError(400, MESSAGES.badJson);
      throw error;
    }
  }

  /** Removes uploads that the request they came with did not keep (the save failed). */
  async discard(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      await this.uow.run(() => this.files.delete(path));
      await this.store.remove(`${UPLOADS_PREFIX}${path}`);
    }
  }

  /**
   * An image keeps the extension of what it really is; another file its own short extension, unless
   * that would make it pass for an image (only real images are shown inline).
   */
  private extension(originalName: string, imageExt: string | undefined): string {
    if (imageExt) return imageExt;
    const ext = extname(originalName).toLowerCase();
    if (!/^\.[a-z0-9]{1,10}$/.test(ext) || IMAGE_EXTENSIONS.has(ext)) return '';
    return ext;
  }
}
