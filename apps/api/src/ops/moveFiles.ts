import { inParallel } from '../lib/inParallel.js';
import { everyStoredObject, type FileStore } from '../platform/fileStore/fileStore.js';

/** Files copied at once, as a backup copies them. */
const PARALLEL = 4;

export interface MoveReport {
  copied: number;
  /** Already in the target with the same size (a move that was interrupted and run again). */
  present: number;
  bytes: number;
  removed: number;
}

/**
 * Moves every file (uploads and SCORM packages) from one store to another — DATA_DIR's folder to a
 * bucket or back (docs/decisions.md §Files in a folder or a bucket). Each file is streamed, then
 * checked by its size in the target; the sources are removed only after all of them are there, so
 * a move that stops half-way leaves the source whole and can be run again.
 */
export async function moveFiles(
  from: FileStore,
  to: FileStore,
  options: { keepSource: boolean; progress?: (report: MoveReport) => void },
): Promise<MoveReport> {
  const report: MoveReport = { copied: 0, present: 0, bytes: 0, removed: 0 };
  const moved: string[] = [];
  await inParallel(everyStoredObject(from), PARALLEL, async (object) => {
    const there = await to.open(object.key);
    if (there?.size === object.size) {
      report.present += 1;
    } else {
      const source = await from.open(object.key);
      if (!source) return;
      const written = await to.write(object.key, await source.stream());
      const check = await to.open(object.key);
      if (written !== source.size || check?.size !== source.size) {
        throw new Error(`${object.key}: в хранилище записано ${check?.size ?? 0} байт из ${source.size}`);
      }
      report.copied += 1;
      report.bytes += source.size;
    }
    moved.push(object.key);
    options.progress?.(report);
  });
  if (!options.keepSource) {
    for (const key of moved) {
      await from.remove(key);
      report.removed += 1;
    }
  }
  return report;
}
