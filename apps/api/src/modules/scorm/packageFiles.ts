import { createReadStream } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { inParallel } from '../../lib/inParallel.js';
import { SCORM_PREFIX, type FileStore } from '../../platform/fileStore/fileStore.js';

/** Files written to the store at once: a package of many small files goes faster, memory stays bounded. */
const PARALLEL = 4;

/** The key of a file of a package's folder. */
export const packageKey = (folder: string, path: string): string => `${SCORM_PREFIX}${folder}/${path}`;

async function* filesUnder(dir: string): AsyncIterable<string> {
  for await (const entry of await opendir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Copies an unpacked package (a folder on this machine's disk, checked by the reader) into the file
 * store under `scorm/<folder>/`: a folder under DATA_DIR or a bucket every process reads.
 */
export async function storePackage(store: FileStore, unpacked: string, folder: string): Promise<void> {
  await inParallel(filesUnder(unpacked), PARALLEL, async (file) => {
    await store.write(packageKey(folder, relative(unpacked, file).split(sep).join('/')), createReadStream(file));
  });
}

/** Removes what was stored of a package (an upload refused or failed after its files were copied). */
export async function removePackage(store: FileStore, folder: string): Promise<void> {
  const keys: string[] = [];
  for await (const object of store.list(`${SCORM_PREFIX}${folder}/`)) keys.push(object.key);
  for (const key of keys) await store.remove(key);
}
