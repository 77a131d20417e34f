import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/privateFiles.js';
import { inParallel } from '../../lib/inParallel.js';
import { everyStoredObject, type FileStore } from '../../platform/fileStore/fileStore.js';
import { Checksum, FILES_DIR, type FileEntry } from './manifest.js';

/**
 * Files between the store (a folder or a bucket, through `FileStore` only) and a backup folder's
 * `files/<key>`, streamed with their checksums computed on the way: memory stays bounded whatever a
 * file's size. Four at a time, as a package's files go into the store.
 */
const PARALLEL = 4;

/** Where a key's copy lives in a backup folder (keys are checked: relative, no `..`). */
export const backupPath = (dir: string, key: string) => join(dir, FILES_DIR, ...key.split('/'));

/**
 * Copies every file of the store into `dir/files/`. A file listed but gone when opened was removed
 * by a cleanup meanwhile (nothing referred to it) and is left out.
 */
export async function copyFilesOut(store: FileStore, dir: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  await inParallel(everyStoredObject(store), PARALLEL, async (object) => {
    const opened = await store.open(object.key);
    if (!opened) return;
    const path = backupPath(dir, object.key);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    const sum = new Checksum();
    await pipeline(
      await opened.stream(),
      (chunks: AsyncIterable<Buffer>) => sum.pass(chunks),
      createWriteStream(path, { flags: 'wx', mode: PRIVATE_FILE_MODE }),
    );
    entries.push({ key: object.key, size: sum.size, sha256: sum.hex() });
  });
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** A stored object's SHA-256, streamed. */
async function storedChecksum(store: FileStore, key: string): Promise<string | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const sum = new Checksum();
  for await (const _chunk of sum.pass(await opened.stream())) {
    // Only counted.
  }
  return sum.hex();
}

/**
 * The keys the target store already holds, byte for byte as in the backup (what a restore cut short
 * had copied: they are not copied again). Any other file there refuses the restore before anything
 * is written: a store in use is never written into or overwritten.
 */
export async function filesAlreadyThere(store: FileStore, entries: readonly FileEntry[]): Promise<Set<string>> {
  const wanted = new Map(entries.map((e) => [e.key, e]));
  const there = new Set<string>();
  for await (const object of everyStoredObject(store)) {
    const entry = wanted.get(object.key);
    const same =
      entry !== undefined && entry.size === object.size && (await storedChecksum(store, object.key)) === entry.sha256;
    if (!same) {
      throw new Error(
        `В хранилище ${store.location} уже есть другие файлы (например, ${object.key}): восстановление идёт только в пустое хранилище, ничего не перезаписывается`,
      );
    }
    there.add(object.key);
  }
  return there;
}

/**
 * Writes the backup's files into the store (those not there yet), checking each checksum on the way:
 * a file that differs from its manifest line (it changed after the check that preceded) is removed
 * again and stops the restore.
 */
export async function copyFilesIn(
  store: FileStore,
  dir: string,
  entries: readonly FileEntry[],
  skip: ReadonlySet<string>,
): Promise<void> {
  await inParallel(
    entries.filter((e) => !skip.has(e.key)),
    PARALLEL,
    async (entry) => {
      const sum = new Checksum();
      await store.write(entry.key, Readable.from(sum.pass(createReadStream(backupPath(dir, entry.key)))));
      if (sum.size !== entry.size || sum.hex() !== entry.sha256) {
        await store.remove(entry.key);
        throw new Error(`Файл ${entry.key} в копии изменился во время восстановления: контрольная сумма не совпала`);
      }
    },
  );
}
