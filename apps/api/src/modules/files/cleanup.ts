import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { SCORM_PREFIX, UPLOADS_PREFIX, type FileStore, type StoredObject } from '../../platform/fileStore/fileStore.js';
import type { ScormRepository } from '../scorm/repository.js';
import type { FilesRepository } from './repository.js';

/** Younger files are left alone: an upload is made before the form that refers to it is saved. */
export const CLEANUP_GRACE_MS = 24 * 3_600_000;
/** Folders under storage/ that uploads write to (modules/files/uploadRoutes.ts, tests, certificates). */
const UPLOAD_FOLDERS = ['lessons/', 'courses/', 'tests/', 'certificates/'];
/** Folders under DATA_DIR where bytes wait on their way into the store. */
const LOCAL_TEMP = ['.store-tmp', '.scorm-incoming'];
/** Where versions before the file store received uploads (`<name>.part`, renamed when whole). */
const EARLIER_TEMP = `${UPLOADS_PREFIX}tmp/`;
const PAGE = 500;

export interface CleanupReport {
  /** Uploads no record refers to: their row and their bytes. */
  unreferenced: number;
  /** Bytes under an upload folder with no row (an upload cut short between the bytes and the row). */
  strays: number;
  /** Unpacked package folders with no version (an upload that failed after its files were stored). */
  packageFolders: number;
  /** Temporary files left by a stopped process. */
  temporary: number;
  bytes: number;
}

/**
 * Removes what nothing refers to (docs/rules.md §Uploads), on a folder or a bucket alike: files older
 * than a day that no record names (a replaced cover, a removed block's file), bytes without a row,
 * package folders without a version, and leftovers of uploads a stopped process was receiving. A
 * file a learner's record names — a certificate's logo, a soft-deleted lesson's file — is never one.
 */
export class StorageCleanup {
  constructor(
    private readonly store: FileStore,
    private readonly uow: UnitOfWork,
    private readonly files: FilesRepository,
    private readonly scorm: ScormRepository,
    private readonly clock: Clock,
    private readonly dataDir: string,
  ) {}

  async run(options: { dryRun: boolean }): Promise<CleanupReport> {
    const before = new Date(this.clock.now().getTime() - CLEANUP_GRACE_MS);
    const report: CleanupReport = { unreferenced: 0, strays: 0, packageFolders: 0, temporary: 0, bytes: 0 };
    await this.unreferenced(before, options.dryRun, report);
    await this.strays(before, options.dryRun, report);
    await this.packageFolders(before, options.dryRun, report);
    await this.temporary(before, options.dryRun, report);
    return report;
  }

  private async unreferenced(before: Date, dryRun: boolean, report: CleanupReport): Promise<void> {
    for (let after = 0; ;) {
      const rows = await this.files.unreferenced(iso(before), after, PAGE);
      if (rows.length === 0) return;
      for (const row of rows) {
        after = row.id;
        // The row goes first, in one statement that checks again: a file referred to meanwhile stays.
        const gone = dryRun || (await this.uow.run(() => this.files.deleteIfUnreferenced(row.path)));
        if (!gone) continue;
        if (!dryRun) await this.store.remove(`${UPLOADS_PREFIX}${row.path}`);
        report.unreferenced += 1;
        report.bytes += row.size;
      }
    }
  }

  private async strays(before: Date, dryRun: boolean, report: CleanupReport): Promise<void> {
    for (const folder of UPLOAD_FOLDERS) {
      for await (const page of pages(this.store.list(`${UPLOADS_PREFIX}${folder}`))) {
        const old = page.filter((o) => o.modifiedAt < before);
        const paths = old.map((o) => o.key.slice(UPLOADS_PREFIX.length));
        const known = await this.files.existingPaths(paths);
        for (const object of old) {
          if (known.has(object.key.slice(UPLOADS_PREFIX.length))) continue;
          if (!dryRun) await this.store.remove(object.key);
          report.strays += 1;
          report.bytes += object.size;
        }
      }
    }
  }

  private async packageFolders(before: Date, dryRun: boolean, report: CleanupReport): Promise<void> {
    // A folder is judged by all its files: one written within the grace period keeps it. Folders are
    // taken a page at a time, so that memory holds a page of them, not every package's files.
    let page: { name: string; objects: StoredObject[] }[] = [];
    const judge = async () => {
      const known = await this.scorm.knownFolders(page.map((f) => f.name));
      for (const folder of page.filter((f) => !known.has(f.name))) {
        for (const object of folder.objects) {
          if (!dryRun) await this.store.remove(object.key);
          report.bytes += object.size;
        }
        report.packageFolders += 1;
      }
      page = [];
    };
    for await (const folder of packageFolders(this.store.list(SCORM_PREFIX))) {
      if (folder.objects.some((o) => o.modifiedAt >= before)) continue;
      page.push(folder);
      if (page.length === PAGE) await judge();
    }
    if (page.length > 0) await judge();
  }

  private async temporary(before: Date, dryRun: boolean, report: CleanupReport): Promise<void> {
    for await (const object of this.store.list(EARLIER_TEMP)) {
      if (object.modifiedAt >= before) continue;
      if (!dryRun) await this.store.remove(object.key);
      report.temporary += 1;
      report.bytes += object.size;
    }
    for (const folder of LOCAL_TEMP) {
      const dir = join(this.dataDir, folder);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => null);
        if (!info || info.mtime >= before) continue;
        if (!dryRun) await rm(path, { recursive: true, force: true });
        report.temporary += 1;
        report.bytes += info.isFile() ? info.size : 0;
      }
    }
  }
}

async function* pages<T>(items: AsyncIterable<T>): AsyncIterable<T[]> {
  let page: T[] = [];
  for await (const item of items) {
    page.push(item);
    if (page.length === PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/**
 * The objects under `scorm/`, a package folder at a time. Both stores list a folder's files together:
 * the folder store walks one directory before the next, and a bucket lists keys in order, where keys
 * sharing the prefix `scorm/<folder>/` are next to each other.
 */
async function* packageFolders(
  objects: AsyncIterable<StoredObject>,
): AsyncIterable<{ name: string; objects: StoredObject[] }> {
  let current: { name: string; objects: StoredObject[] } | undefined;
  for await (const object of objects) {
    const name = object.key.slice(SCORM_PREFIX.length).split('/')[0] ?? '';
    if (current?.name !== name) {
      if (current) yield current;
      current = { name, objects: [] };
    }
    current.objects.push(object);
  }
  if (current) yield current;
}
