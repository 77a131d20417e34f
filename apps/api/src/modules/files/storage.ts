import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { UPLOADS_PREFIX, type FileStore } from '../../platform/fileStore/fileStore.js';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

export interface StoredFile {
  size: number;
  mime: string;
  inline: boolean;
  stream(): Promise<Readable>;
}

/**
 * Uploaded files as /storage serves them: `storage/<path>` of the file store (which refuses any path
 * leaving its namespace); only images are shown inline.
 */
export class Storage {
  constructor(private readonly store: FileStore) {}

  async open(relative: string): Promise<StoredFile | null> {
    const key = `${UPLOADS_PREFIX}${relative.replace(/^\/+/, '')}`;
    const found = await this.store.open(key);
    if (!found) return null;
    const image = IMAGE_TYPES[extname(key).toLowerCase()];
    return {
      size: found.size,
      mime: image ?? 'application/octet-stream',
      inline: image !== undefined,
      stream: () => found.stream(),
    };
  }

  /** The whole file (a small one: a logo read into a PDF), or null. */
  async read(relative: string): Promise<Buffer | null> {
    const file = await this.open(relative);
    return file ? buffer(await file.stream()) : null;
  }
}
