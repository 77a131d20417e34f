import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { ensurePrivateDir } from '../../lib/privateFiles.js';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

export interface StoredFile {
  path: string;
  size: number;
  mime: string;
  inline: boolean;
  stream(): NodeJS.ReadableStream;
}

/**
 * Files under DATA_DIR/storage. A request path never leaves that folder (`..`, absolute paths and
 * symlinks pointing outside are refused); only images are shown inline.
 */
export class Storage {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = resolve(join(dataDir, 'storage'));
    // Owner-only, also when an older version or the demo seed made it: files are served through
    // the access check of /storage, never read from the disk by another account.
    ensurePrivateDir(this.root, { tighten: true });
  }

  async open(relative: string): Promise<StoredFile | null> {
    if (relative.includes('\0')) return null;
    const candidate = resolve(this.root, relative.replace(/^\/+/, ''));
    if (!candidate.startsWith(this.root + sep)) return null;
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      return null;
    }
    const rootReal = await realpath(this.root).catch(() => this.root);
    if (!real.startsWith(rootReal + sep)) return null;
    const info = await stat(real);
    if (!info.isFile()) return null;
    const image = IMAGE_TYPES[extname(real).toLowerCase()];
    return {
      path: real,
      size: info.size,
      mime: image ?? 'application/octet-stream',
      inline: image !== undefined,
      stream: () => createReadStream(real),
    };
  }
}
