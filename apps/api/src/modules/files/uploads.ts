import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CONSTRUCTOR_MESSAGES as M, cleanFileName } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { HttpError, MESSAGES, unprocessable } from '../../platform/errors.js';
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

/**
 * Uploads (docs/rules.md §Uploads): streamed to a temporary file, checked by size and (images) by
 * content, then renamed under a random name; the database row is written last, and an upload that
 * fails or is aborted leaves nothing behind.
 */
export class Uploads {
  readonly #root: string;
  constructor(
    dataDir: string,
    private readonly uow: UnitOfWork,
    private readonly files: FilesRepository,
    private readonly clock: Clock,
  ) {
    this.#root = join(dataDir, 'storage');
  }

  async save(req: UploadRequest): Promise<StoredUpload> {
    // What the request's stream fails with is the request's doing (a form cut short), not the server's.
    // The parser reports a part cut short by emitting 'error' on it without ending or destroying it,
    // and a pipeline started later would wait for ever: the error is made the stream's own.
    let inputError: unknown;
    req.stream.once('error', (error) => {
      inputError = error;
      req.stream.destroy(error);
    });
    const tmpDir = join(this.#root, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const tmp = join(tmpDir, `${randomBytes(16).toString('hex')}.part`);
    let size = 0;
    let head = Buffer.alloc(0);
    const guard = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > req.maxBytes) return done(new TooLarge());
        if (head.length < HEAD_BYTES) {
          head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          if (req.kind === 'image' && head.length >= HEAD_BYTES && !sniffImage(head)) return done(new NotAnImage());
        }
        done(null, chunk);
      },
    });
    try {
      // A part already torn down (cut short before it was read) has nothing to give.
      if (req.stream.destroyed) throw new HttpError(400, MESSAGES.badJson);
      await pipeline(req.stream, guard, createWriteStream(tmp, { mode: 0o600 }));
      if ((req.stream as Readable & { truncated?: boolean }).truncated) throw new TooLarge();
      const image = sniffImage(head);
      if (req.kind === 'image' && !image) throw new NotAnImage();
      await req.beforeKeep?.();
      const ext = this.extension(req.originalName, image?.ext);
      const relative = `${req.folder}/${randomBytes(16).toString('hex')}${ext}`;
      await mkdir(join(this.#root, req.folder), { recursive: true, mode: 0o700 });
      await rename(tmp, join(this.#root, relative));
      const originalName = cleanFileName(req.originalName, `file${ext}`);
      const mime = image?.mime ?? 'application/octet-stream';
      try {
        await this.uow.run(() =>
          this.files.insert(
            { path: relative, original_filename: originalName, mime, size, uploaded_by: req.userId },
            iso(this.clock.now()),
          ),
        );
      } catch (error) {
        await rm(join(this.#root, relative), { force: true });
        throw error;
      }
      return { file_path: relative, original_filename: originalName, mime, size };
    } catch (error) {
      await rm(tmp, { force: true });
      // The rest of the request body is not read: the client gets its answer at once.
      req.stream.resume();
      if (error instanceof TooLarge) {
        throw new HttpError(413, req.kind === 'image' ? M.imageTooLarge : M.fileTooLarge);
      }
      if (error instanceof NotAnImage) throw unprocessable(M.badImage, { image: [M.badImage] });
      if (error instanceof HttpError) throw error;
      if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') throw unprocessable(M.uploadAborted);
      if (error === inputError) throw new HttpError(400, MESSAGES.badJson);
      throw error;
    }
  }

  /** Removes uploads that the request they came with did not keep (the save failed). */
  async discard(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      await this.uow.run(() => this.files.delete(path));
      await rm(join(this.#root, path), { force: true });
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
