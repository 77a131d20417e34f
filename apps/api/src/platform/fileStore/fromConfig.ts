import type { Config } from '../../config.js';
import type { FileStore } from './fileStore.js';
import { FolderStore } from './folderStore.js';
import { S3Store } from './s3Store.js';

/** The store STORAGE_URL names: DATA_DIR's folders by default, or the bucket. */
export function createFileStore(config: Pick<Config, 'dataDir' | 'storage'>): FileStore {
  if (config.storage.kind === 's3') {
    const { kind: _kind, ...settings } = config.storage;
    return new S3Store(settings);
  }
  return new FolderStore(config.dataDir);
}
