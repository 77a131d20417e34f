import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import {
  isSafeKey,
  SCORM_PREFIX,
  UPLOADS_PREFIX,
  type FileStore,
  type OpenedObject,
  type StoredObject,
} from './fileStore.js';

/**
 * Objects as files under a folder (DATA_DIR by default: `storage/…`, `scorm/…`), owner-only. A write
 * goes to a temporary file in the same file system and is renamed into place, so a reader never sees
 * half a file; a symlink that points out of the folder is never followed.
 */
export class FolderStore implements FileStore {
  readonly kind = 'folder' as const;
  readonly root: string;
  readonly #tmp: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.#tmp = join(this.root, '.store-tmp');
    // Owner-only, also when an older version or the demo seed made them: files are served through
    // the access checks, never read from the disk by another account.
    for (const namespace of [UPLOADS_PREFIX, SCORM_PREFIX])
      ensurePrivateDir(join(this.root, namespace), { tighten: true });
  }

  get location(): string {
    return this.root;
  }

  private path(key: string): string | null {
    if (!isSafeKey(key)) return null;
    const path = resolve(this.root, key);
    return path.startsWith(this.root + sep) ? path : null;
  }

  private required(key: string): string {
    const path = this.path(key);
    if (!path) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
    return path;
  }

  async write(key: string, body: Readable): Promise<number> {
    const target = this.required(key);
    ensurePrivateDir(this.#tmp);
    const tmp = join(this.#tmp, `${randomBytes(16).toString('hex')}.part`);
    let size = 0;
    const count = async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        size += chunk.length;
        yield chunk;
      }
    };
    try {
      await pipeline(body, count, createWriteStream(tmp, { mode: PRIVATE_FILE_MODE }));
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await rename(tmp, target);
      return size;
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async open(key: string): Promise<OpenedObject | null> {
    const candidate = this.path(key);
    if (!candidate) return null;
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      return null;
    }
    const rootReal = await realpath(this.root).catch(() => this.root);
    // Where it really is must be a key too: no link out of the folder or into DATA_DIR's own files.
    if (!isSafeKey(relative(rootReal, real).split(sep).join('/'))) return null;
    const info = await stat(real).catch(() => null);
    if (!info?.isFile()) return null;
    return {
      size: info.size,
      modifiedAt: info.mtime,
      stream: async (range) => createReadStream(real, range),
    };
  }

  async remove(key: string): Promise<void> {
    const path = this.path(key);
    if (path) await rm(path, { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const base = resolve(this.root, prefix.replace(/\/[^/]*$/, ''));
    if (base !== this.root && !base.startsWith(this.root + sep)) return;
    yield* this.walk(base, prefix);
  }

  private async *walk(folder: string, prefix: string): AsyncIterable<StoredObject> {
    let dir;
    try {
      dir = await opendir(folder);
    } catch {
      return;
    }
    for await (const entry of dir) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) yield* this.walk(path, prefix);
      else if (entry.isFile()) {
        const key = relative(this.root, path).split(sep).join('/');
        if (!key.startsWith(prefix) || !isSafeKey(key)) continue;
        const info = await stat(path).catch(() => null);
        if (info) yield { key, size: info.size, modifiedAt: info.mtime };
      }
    }
  }

  async probe(): Promise<void> {
    const key = `storage/.probe/${randomBytes(8).toString('hex')}`;
    const path = this.required(key);
    await this.write(key, Readable.from([Buffer.from('ok')]));
    try {
      if ((await readFile(path, 'utf8')) !== 'ok') throw new Error('The storage folder gave back other bytes');
    } finally {
      await this.remove(key);
    }
  }
}
