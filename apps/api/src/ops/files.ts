import { prepareDatabase } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { UnitOfWork } from '../db/unitOfWork.js';
import { StorageCleanup } from '../modules/files/cleanup.js';
import { FilesRepository } from '../modules/files/repository.js';
import { ScormRepository } from '../modules/scorm/repository.js';
import { systemClock } from '../platform/clock.js';
import { FolderStore } from '../platform/fileStore/folderStore.js';
import { createFileStore } from '../platform/fileStore/fromConfig.js';
import { moveFiles } from './moveFiles.js';

/**
 * `npm run files -- <command>` (node apps/api/dist/ops/files.js), with the server's environment:
 *   cleanup [--dry-run]          removes files nothing refers to (modules/files/cleanup.ts)
 *   move --to bucket|folder [--keep]
 *                                moves every file from DATA_DIR to STORAGE_URL's bucket, or back
 */
const USAGE = [
  'Использование:',
  '  npm run files -- cleanup [--dry-run]        удалить файлы, на которые ничто не ссылается',
  '  npm run files -- move --to bucket [--keep]  перенести файлы из DATA_DIR в хранилище STORAGE_URL',
  '  npm run files -- move --to folder [--keep]  перенести файлы из хранилища STORAGE_URL в DATA_DIR',
].join('\n');

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} МБ`;

async function cleanup(dryRun: boolean): Promise<string[]> {
  const config = loadConfig();
  const db = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // As `npm start` and `npm run demo` do: a database it has never seen is brought up to date first.
    await prepareDatabase(db);
    const uow = new UnitOfWork(db.kysely, db.kind);
    const store = createFileStore(config);
    const cleaner = new StorageCleanup(
      store,
      uow,
      new FilesRepository(uow),
      new ScormRepository(uow),
      systemClock,
      config.dataDir,
    );
    const r = await cleaner.run({ dryRun });
    return [
      dryRun ? `Проверка без удаления (${store.location}). Было бы удалено:` : `Удалено (${store.location}):`,
      `  файлы, на которые ничто не ссылается: ${r.unreferenced}`,
      `  файлы без записи в базе: ${r.strays}`,
      `  папки SCORM-пакетов без версии: ${r.packageFolders}`,
      `  временные файлы: ${r.temporary}`,
      `  объём: ${megabytes(r.bytes)}`,
    ];
  } finally {
    await db.close();
  }
}

async function move(to: string | undefined, keepSource: boolean): Promise<string[]> {
  const config = loadConfig();
  if (to !== 'bucket' && to !== 'folder') throw new Error(USAGE);
  if (config.storage.kind !== 's3') {
    throw new Error('Укажите хранилище в STORAGE_URL (s3://бакет/префикс) и переменных S3_*');
  }
  const folder = new FolderStore(config.dataDir);
  const bucket = createFileStore(config);
  const [from, target] = to === 'bucket' ? [folder, bucket] : [bucket, folder];
  const r = await moveFiles(from, target, { keepSource });
  return [
    `Файлы перенесены: ${from.location} → ${target.location}`,
    `  скопировано: ${r.copied} (${megabytes(r.bytes)}), уже были на месте: ${r.present}`,
    keepSource ? '  исходные файлы оставлены (--keep)' : `  удалено из источника: ${r.removed}`,
  ];
}

async function main(args: string[]): Promise<string[]> {
  const [command, ...rest] = args;
  if (command === 'cleanup') return cleanup(rest.includes('--dry-run'));
  if (command === 'move') return move(rest[rest.indexOf('--to') + 1], rest.includes('--keep'));
  throw new Error(USAGE);
}

main(process.argv.slice(2)).then(
  (lines) => process.stdout.write(`${lines.join('\n')}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
