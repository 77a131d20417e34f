import type { Readable } from 'node:stream';
import { HttpError, MESSAGES } from '../errors.js';

/** One stored object as a listing gives it. */
export interface StoredObject {
  /** Its key, e.g. `storage/lessons/1f….pdf` or `scorm/p3a…/index.html`. */
  key: string;
  size: number;
  modifiedAt: Date;
}

/** An object found by `open`: its size, and its bytes as often as they are asked for. */
export interface OpenedObject {
  size: number;
  modifiedAt: Date;
  /** The bytes from `start` to `end` inclusive (a range request), or all of them. */
  stream(range?: { start: number; end: number }): Promise<Readable>;
}

/**
 * Where uploaded files and unpacked SCORM packages live (docs/decisions.md §Files in a folder or a
 * bucket): a folder under DATA_DIR (the default) or an S3 bucket (STORAGE_URL=s3://…). Keys are
 * relative paths with `/`; a key that could leave its namespace (`..`, absolute, backslash, NUL) is
 * refused by every method. Nothing else in the server reads or writes these files directly.
 */
export interface FileStore {
  readonly kind: 'folder' | 's3';
  /** Where, for logs and the backup's manifest (no credentials). */
  readonly location: string;
  /**
   * Streams `body` under `key` in bounded memory and resolves with the bytes written. When the body
   * fails or is cut short nothing is left under `key`; an existing object is replaced.
   */
  write(key: string, body: Readable, options?: { contentType?: string }): Promise<number>;
  /** The object under `key`, or null when there is none (or the key is refused). */
  open(key: string): Promise<OpenedObject | null>;
  /** Removes the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder: ends with `/`), in no promised order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Writes, reads back and removes a small object: readiness and the operator's check. */
  probe(): Promise<void>;
}

/** The namespaces: uploads (served under /storage) and unpacked SCORM packages. */
export const UPLOADS_PREFIX = 'storage/';
export const SCORM_PREFIX = 'scorm/';

const NAMESPACES = [UPLOADS_PREFIX, SCORM_PREFIX];

/** Every object of both namespaces: what a backup or a move between stores goes through. */
export async function* everyStoredObject(store: FileStore): AsyncIterable<StoredObject> {
  for (const prefix of NAMESPACES) yield* store.list(prefix);
}

/**
 * Whether a key stays inside the store: in one of the namespaces, relative, `/`-separated, no empty,
 * `.` or `..` segment, no NUL or `\` (the folder store shares DATA_DIR with the database).
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024 || !NAMESPACES.some((n) => key.startsWith(n))) return false;
  if (key.includes('\0') || key.includes('\\') || key.startsWith('/')) return false;
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * The store did not answer or refused the server itself (an outage, a wrong key or endpoint): not
 * the request's fault nor a bug, so the client is told to come back (503) and the cause is logged.
 */
export class StoreUnavailable extends HttpError {
  constructor(cause: unknown) {
    super(503, MESSAGES.storageUnavailable);
    this.name = 'StoreUnavailable';
    this.cause = cause;
  }
}
