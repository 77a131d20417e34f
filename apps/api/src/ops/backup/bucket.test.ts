import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../platform/fileStore/fromConfig.js';
import { demoInstallation, emptyInstallation, everyFile, everyRow, type Installation } from '../../test/companies.js';
import { dialectName } from '../../test/harness.js';
import { startS3Server, type RunningS3 } from '../../test/s3Server.js';
import { backupPath } from './files.js';
import { restoreBackup } from './restoreBackup.js';
import { takeBackup } from './takeBackup.js';

/** Files in a bucket (STORAGE_URL) backed up through the FileStore and restored into another bucket. */

let s3: RunningS3;
let other: RunningS3;
const installations: Installation[] = [];
let root: string;
beforeAll(async () => {
  s3 = await startS3Server();
  other = await startS3Server('lms-restored', 'restored/');
  root = mkdtempSync(join(tmpdir(), 'lms-bucket-backup-'));
});
afterAll(async () => {
  for (const i of installations) await i.drop();
  await s3.stop();
  await other.stop();
  rmSync(root, { recursive: true, force: true });
});

/** 9 MB: more than one part of a multipart upload. */
const LARGE = 9 * 1024 * 1024;
const largeBody = () => Readable.from(Array.from({ length: 9 }, (_, i) => Buffer.alloc(1024 * 1024, i + 1)));

describe(`backup and restore with files in a bucket (${dialectName})`, () => {
  it('copies the bucket and restores it into another bucket, skipping what a restore cut short copied', async () => {
    const prefix = `co${Date.now().toString(36)}/`;
    const source = await demoInstallation((config) => createFileStore(config), {
      ...s3.env,
      STORAGE_URL: `s3://${s3.settings.bucket}/${prefix}`,
    });
    installations.push(source);
    const bucket = createFileStore(source.config);
    expect(bucket.kind).toBe('s3');
    await bucket.write('storage/lessons/large.bin', largeBody());
    const backup = join(root, 'backup');

    const manifest = await takeBackup(source.config, backup);
    expect(manifest.files.location).toBe(`s3://lms-test/${prefix}`);
    expect(manifest.files.items.find((e) => e.key === 'storage/lessons/large.bin')?.size).toBe(LARGE);
    expect(manifest.files.items.filter((e) => e.key.startsWith('storage/demo/')).length).toBeGreaterThan(3);

    const target = await emptyInstallation(other.env);
    installations.push(target);
    const restored = createFileStore(target.config);
    expect(restored.location).toBe('s3://lms-restored/restored/');
    // A bucket holding something else is refused before anything is written.
    await restored.write('storage/other.txt', Readable.from([Buffer.from('other')]));
    await expect(restoreBackup(target.config, backup)).rejects.toThrow(/уже есть другие файлы/);
    expect(Object.keys(await everyFile(restored))).toEqual(['storage/other.txt']);
    await restored.remove('storage/other.txt');

    // One of the backup's own files already there, as a restore cut short leaves it: not copied again.
    const copied = manifest.files.items[0]?.key ?? '';
    await restored.write(copied, createReadStream(backupPath(backup, copied)));
    const said: string[] = [];
    await restoreBackup(target.config, backup, (line) => said.push(line));
    expect(said.join('\n')).toMatch(/файлы: \d+, [\d.]+ МБ → s3:\/\/lms-restored\/restored\/ \(уже были на месте: 1\)/);
    expect(await everyFile(restored)).toEqual(await everyFile(bucket));
    expect(await everyRow(target)).toEqual(await everyRow(source));
  }, 60_000);
});
