import { UnitOfWork } from '../db/unitOfWork.js';
import { StorageCleanup } from '../modules/files/cleanup.js';
import { FilesRepository } from '../modules/files/repository.js';
import { ScormRepository } from '../modules/scorm/repository.js';
import type { FileStore } from '../platform/fileStore/fileStore.js';
import type { TestContext } from './harness.js';

/** The cleanup `npm run files -- cleanup` runs, on a test app's database, clock and store (or `store`). */
export function storageCleanup(ctx: TestContext, store: FileStore = ctx.app.fileStore): StorageCleanup {
  const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
  return new StorageCleanup(
    store,
    uow,
    new FilesRepository(uow),
    new ScormRepository(uow),
    ctx.clock,
    ctx.config.dataDir,
  );
}
