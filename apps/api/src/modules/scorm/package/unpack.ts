import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, type TransformCallback, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SCORM_LIMITS, type ScormPackageProblem } from '@lms/contract';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { safeEntryName } from '../../../lib/zip.js';

/**
 * The longest path inside a package, in UTF-8 bytes: its key in the file store, with `scorm/<folder>/`
 * and a bucket's prefix, must stay within S3's 1024 bytes.
 */
export const MAX_PATH_BYTES = 900;

/**
 * Unpacking an uploaded SCORM package (a ZIP archive of up to 4 GB) without trusting it: the
 * archive is read from disk and every entry streamed to its file, so neither the archive nor an
 * entry is ever held in memory; every name, type and size is checked, and the bytes are counted as
 * they inflate, since a header may lie. Whatever goes wrong, nothing is left behind.
 */

/** Why a package is not accepted: `problem` is one of the contract's codes (with its Russian text). */
export class PackageRefused extends Error {
  constructor(
    readonly problem: ScormPackageProblem,
    readonly detail?: string,
  ) {
    super(detail === undefined ? `SCORM package refused: ${problem}` : `SCORM package refused: ${problem} (${detail})`);
    this.name = 'PackageRefused';
  }
}

export interface UnpackLimits {
  /** Entries (files and folders) in the archive at most. */
  entries: number;
  /** Bytes all files unpack to, at most, counted as they inflate. */
  unpackedBytes: number;
}

const DEFAULT_LIMITS: UnpackLimits = { entries: SCORM_LIMITS.entries, unpackedBytes: SCORM_LIMITS.unpackedBytes };

/** The storage is the server's own: nobody else on the machine reads a learner's package. */
const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;

const FILE_TYPE_MASK = 0o170000;
const SYMBOLIC_LINK = 0o120000;

/** Local file header, or the end record of an empty archive: the first bytes of a ZIP file. */
const ZIP_SIGNATURES = [0x04034b50, 0x06054b50];

/** yauzl's own checks of names (it refuses these before we see the entry). */
const YAUZL_NAME_ERRORS = /^(invalid characters in fileName|absolute path|invalid relative path)/;

interface PlannedEntry {
  entry: Entry;
  /** The entry's path, '/'-separated, without '.' or empty parts and without the trailing '/'. */
  path: string;
  isDirectory: boolean;
}

/**
 * Unpacks the archive at `zipPath` into `targetDir` (which must not exist yet, or be empty) and
 * tells how many files and bytes it held; throws `PackageRefused` when the archive is not
 * acceptable, and leaves no trace of a failed attempt.
 */
export async function unpackPackage(
  zipPath: string,
  targetDir: string,
  limits: UnpackLimits = DEFAULT_LIMITS,
): Promise<{ files: number; bytes: number }> {
  await assertLooksLikeZip(zipPath);
  const zip = await openZip(zipPath);
  try {
    if (zip.entryCount > limits.entries) {
      throw new PackageRefused('too-many-entries', `${zip.entryCount} > ${limits.entries}`);
    }
    const planned = planEntries(await readDirectory(zip));
    const claimedBytes = planned.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
    // Honest headers over the limit are refused before any byte is written; lying ones are
    // caught by the count while inflating.
    if (claimedBytes > limits.unpackedBytes) {
      throw new PackageRefused('too-large', `${claimedBytes} > ${limits.unpackedBytes}`);
    }
    // The archive is unpacked beside its destination and moved there only when complete, so that
    // neither a reader of targetDir nor a later attempt ever sees half a package.
    await mkdir(dirname(targetDir), { recursive: true, mode: DIRECTORY_MODE });
    const partialDir = await mkdtemp(join(dirname(targetDir), `.${basename(targetDir)}.unpacking-`));
    try {
      const written = await writeEntries(zip, planned, partialDir, limits.unpackedBytes);
      await rename(partialDir, targetDir);
      return written;
    } catch (error) {
      await rm(partialDir, { recursive: true, force: true });
      throw error;
    }
  } finally {
    zip.close();
  }
}

async function assertLooksLikeZip(zipPath: string): Promise<void> {
  const file = await open(zipPath, 'r');
  try {
    const start = Buffer.alloc(4);
    const { bytesRead } = await file.read(start, 0, 4, 0);
    if (bytesRead < 4 || !ZIP_SIGNATURES.includes(start.readUInt32LE(0))) throw new PackageRefused('not-zip');
  } finally {
    await file.close();
  }
}

async function openZip(zipPath: string): Promise<ZipFile> {
  try {
    return await yauzl.openPromise(zipPath, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      // A backslash is refused rather than read as a folder separator: it names a different
      // file on Windows than on the server.
      strictFileNames: true,
      // The sizes are checked here instead (see writeEntry): yauzl would stop a lying entry as
      // soon as it passes its claimed size, which hides that it is a bomb.
      validateEntrySizes: false,
    });
  } catch (error) {
    throw new PackageRefused('corrupt', messageOf(error));
  }
}

/** The central directory's entries, each refused at once when encrypted, a link or unsafely named. */
function readDirectory(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      const refusal = entryRefusal(entry);
      if (refusal) {
        zip.removeAllListeners('entry');
        reject(refusal);
        return;
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    // Errors keep a listener for the archive's whole life: an unheard 'error' would end the process.
    zip.on('error', (error: unknown) => reject(refusalOfDirectoryError(error)));
    zip.readEntry();
  });
}

function entryRefusal(entry: Entry): PackageRefused | null {
  if (entry.isEncrypted()) return new PackageRefused('encrypted', entry.fileName);
  if (!safeEntryName(entry.fileName)) return new PackageRefused('unsafe-name', entry.fileName);
  if (((entry.externalFileAttributes >>> 16) & FILE_TYPE_MASK) === SYMBOLIC_LINK) {
    return new PackageRefused('link', entry.fileName);
  }
  return null;
}

function refusalOfDirectoryError(error: unknown): PackageRefused {
  const message = messageOf(error);
  // The detail is the entry's name, as for the names refused here ("absolute path: /etc/x" → "/etc/x").
  if (YAUZL_NAME_ERRORS.test(message))
    return new PackageRefused('unsafe-name', message.slice(message.indexOf(': ') + 2));
  if (message.startsWith('strong encryption')) return new PackageRefused('encrypted', message);
  return new PackageRefused('corrupt', message);
}

/**
 * Each entry's place in the unpacked tree. Two entries for one path, or a file where another entry
 * needs a folder, would make one entry silently replace another: refused.
 */
function planEntries(entries: readonly Entry[]): PlannedEntry[] {
  const files = new Set<string>();
  const directories = new Set<string>();
  const planned: PlannedEntry[] = [];
  for (const entry of entries) {
    const isDirectory = entry.fileName.endsWith('/');
    const path = entry.fileName
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .join('/');
    // './' or '/'-only names point at the package's own folder.
    if (path === '') {
      if (isDirectory) continue;
      throw new PackageRefused('unsafe-name', entry.fileName);
    }
    // Stored as `scorm/<folder>/<path>` under a bucket's prefix: S3 keys have at most 1024 bytes.
    if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw new PackageRefused('unsafe-name', `${path.slice(0, 60)}…`);
    if (files.has(path) || (!isDirectory && directories.has(path))) {
      throw new PackageRefused('unsafe-name', `${entry.fileName}: the path is already used`);
    }
    const parents = parentPaths(path);
    const fileAsParent = parents.find((parent) => files.has(parent));
    if (fileAsParent !== undefined) {
      throw new PackageRefused('unsafe-name', `${entry.fileName}: ${fileAsParent} is a file`);
    }
    for (const parent of parents) directories.add(parent);
    if (isDirectory) directories.add(path);
    else files.add(path);
    planned.push({ entry, path, isDirectory });
  }
  return planned;
}

/** 'a/b/c' → ['a', 'a/b']. */
function parentPaths(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'));
}

async function writeEntries(
  zip: ZipFile,
  planned: readonly PlannedEntry[],
  intoDir: string,
  unpackedBytes: number,
): Promise<{ files: number; bytes: number }> {
  const budget = { left: unpackedBytes };
  const created = new Set<string>();
  const ensureDirectory = async (path: string) => {
    if (created.has(path)) return;
    await mkdir(join(intoDir, path), { recursive: true, mode: DIRECTORY_MODE });
    created.add(path);
  };
  let files = 0;
  for (const { entry, path, isDirectory } of planned) {
    try {
      if (isDirectory) {
        await ensureDirectory(path);
        continue;
      }
      if (path.includes('/')) await ensureDirectory(dirname(path));
      await writeEntry(zip, entry, join(intoDir, path), budget);
      files++;
    } catch (error) {
      // A name the file system cannot hold is the package's problem, not the server's.
      if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG')
        throw new PackageRefused('unsafe-name', entry.fileName);
      throw error;
    }
  }
  return { files, bytes: unpackedBytes - budget.left };
}

async function writeEntry(zip: ZipFile, entry: Entry, filePath: string, budget: { left: number }): Promise<void> {
  let source: Readable;
  try {
    source = await zip.openReadStreamPromise(entry);
  } catch (error) {
    // An unknown compression method, a local header out of place or past the end of the file.
    throw new PackageRefused('corrupt', `${entry.fileName}: ${messageOf(error)}`);
  }
  let inflated = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      inflated += chunk.length;
      budget.left -= chunk.length;
      if (budget.left < 0) done(new PackageRefused('too-large', entry.fileName));
      else done(null, chunk);
    },
    flush(done: TransformCallback) {
      // Within the budget but not what the headers said: the archive is damaged (or lies).
      if (inflated !== entry.uncompressedSize) {
        done(new PackageRefused('corrupt', `${entry.fileName}: ${inflated} bytes, not ${entry.uncompressedSize}`));
      } else done();
    },
  });
  try {
    // 'wx': the plan made each path unique, so an existing file means something is wrong.
    await pipeline(source, counter, createWriteStream(filePath, { flags: 'wx', mode: FILE_MODE }));
  } catch (error) {
    if (error instanceof PackageRefused) throw error;
    // The disk's errors (no space, no permission) are the server's, not the package's.
    if (isSystemCallError(error)) throw error;
    // What remains comes from reading the archive: inflating data that is not deflate, a truncated file.
    throw new PackageRefused('corrupt', `${entry.fileName}: ${messageOf(error)}`);
  }
}

function isSystemCallError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
