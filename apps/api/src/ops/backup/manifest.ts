import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isSafeKey } from '../../platform/fileStore/fileStore.js';

/**
 * What a backup folder holds (docs/decisions.md §Backups):
 *   manifest.json       this description, written last: a folder without it is an unfinished backup
 *   database.sqlite     SQLite's online backup of DATA_DIR/app.db, or
 *   database.dump       pg_dump's custom format (`pg_restore` reads it)
 *   app-secret          DATA_DIR/app-secret, when the server made one (APP_SECRET unset)
 *   files/<key>         every file of the store: `files/storage/…` (uploads), `files/scorm/…` (packages)
 */
export const MANIFEST_FILE = 'manifest.json';
export const SECRET_FILE = 'app-secret';
export const FILES_DIR = 'files';
/** Raised when the layout or the meaning of a field changes; a restore refuses a format it does not know. */
export const MANIFEST_FORMAT = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const size = z.number().int().min(0);

const fileEntry = z.object({
  key: z.string().refine(isSafeKey, 'a key outside storage/ and scorm/'),
  size,
  sha256,
});

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  /** When the backup began: its database is of that moment (the files were copied after it). */
  createdAt: z.string(),
  /** The last migration applied to the copied database: which version of the platform made it. */
  schemaVersion: z.string().min(1),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    file: z.enum(['database.sqlite', 'database.dump']),
    size,
    sha256,
    /** Rows of each table of the application's schema, counted in the copied snapshot. */
    tables: z.record(z.string(), size),
  }),
  /**
   * The key that signs CSRF tokens and seals queued mails: copied from DATA_DIR when the server made
   * it there; with APP_SECRET set it is the operator's to keep, and the backup only says so.
   */
  secret: z.discriminatedUnion('source', [
    z.object({ source: z.literal('file'), file: z.literal(SECRET_FILE), sha256 }),
    z.object({ source: z.literal('APP_SECRET') }),
    z.object({ source: z.literal('none') }),
  ]),
  files: z.object({
    /** Where they were copied from: a folder or s3://bucket/prefix/ (never credentials). */
    location: z.string(),
    count: size,
    bytes: size,
    items: z.array(fileEntry),
  }),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type FileEntry = z.infer<typeof fileEntry>;

/** The manifest of a backup folder, checked field by field; a one-line Russian reason otherwise. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new Error(`В ${dir} нет ${MANIFEST_FILE}: это не резервная копия или она не была закончена`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${MANIFEST_FILE} повреждён: это не JSON`);
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== MANIFEST_FORMAT) {
    throw new Error(
      `Формат копии ${String(format)} не поддерживается этой версией платформы (она читает формат ${MANIFEST_FORMAT})`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${MANIFEST_FILE} повреждён: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`);
  }
  return parsed.data;
}

/** A running SHA-256 and byte count of what passes through `pass` (a file's bytes on their way). */
export class Checksum {
  readonly #hash: Hash = createHash('sha256');
  size = 0;

  /** Yields the chunks unchanged, counting and hashing them: the checksum costs no second read. */
  async *pass(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      this.#hash.update(chunk);
      this.size += chunk.length;
      yield chunk;
    }
  }

  hex(): string {
    return this.#hash.digest('hex');
  }
}

/** A file's size and SHA-256, read in chunks (a 4 GB file needs no more memory than a small one). */
export async function checksumOf(path: string): Promise<{ size: number; sha256: string }> {
  const sum = new Checksum();
  for await (const _chunk of sum.pass(createReadStream(path))) {
    // Only counted.
  }
  return { size: sum.size, sha256: sum.hex() };
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} МБ`;
