import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type RunningS3 } from '../../test/s3Server.js';
import type { FileStore } from './fileStore.js';
import { isSafeKey } from './fileStore.js';
import { FolderStore } from './folderStore.js';
import { S3Store } from './s3Store.js';

let s3: RunningS3;
const folders: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

function folderStore(): FolderStore {
  const dir = mkdtempSync(join(tmpdir(), 'lms-store-'));
  folders.push(dir);
  return new FolderStore(dir);
}

/** A body that gives some bytes and then fails, as a request cut short does. */
function failingBody(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(bytes, 1));
      } else this.destroy(new Error('cut short'));
    },
  });
}

async function keys(store: FileStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const o of store.list(prefix)) found.push(o.key);
  return found.sort();
}

describe('keys', () => {
  it('stay inside the namespaces', () => {
    expect(isSafeKey('storage/lessons/a.pdf')).toBe(true);
    expect(isSafeKey('scorm/p1/res/index.html')).toBe(true);
    for (const bad of [
      'app.db',
      'storage/../app.db',
      '/storage/a',
      'storage//a',
      'storage/a\\b',
      'storage/./a',
      'storage/a\0',
      'secret',
    ]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
  });
});

describe.each([
  ['folder', () => folderStore()],
  ['s3', () => new S3Store({ ...s3.settings, prefix: `run${Math.random().toString(36).slice(2)}/` })],
] as const)('%s store', (_name, make) => {
  it('writes, opens, reads a range, lists and removes', async () => {
    const store = make();
    const size = await store.write(
      'storage/lessons/a.txt',
      Readable.from([Buffer.from('hello '), Buffer.from('world')]),
    );
    expect(size).toBe(11);
    await store.write('scorm/p1/index.html', Readable.from([Buffer.from('<html>')]));
    const opened = await store.open('storage/lessons/a.txt');
    expect(opened?.size).toBe(11);
    expect(await text(await opened!.stream())).toBe('hello world');
    expect(await text(await opened!.stream({ start: 6, end: 10 }))).toBe('world');
    expect(await keys(store, 'storage/')).toEqual(['storage/lessons/a.txt']);
    expect(await keys(store, 'scorm/p1/')).toEqual(['scorm/p1/index.html']);
    await store.remove('storage/lessons/a.txt');
    await store.remove('storage/lessons/never.txt');
    expect(await store.open('storage/lessons/a.txt')).toBeNull();
    await store.probe();
    expect(await keys(store, 'storage/')).toEqual([]);
  });

  it('leaves nothing behind when the body fails, also past one part of a multipart upload', async () => {
    const store = make();
    await expect(store.write('storage/small.bin', failingBody(1000))).rejects.toThrow();
    await expect(store.write('storage/large.bin', failingBody(9 * 1024 * 1024))).rejects.toThrow();
    expect(await store.open('storage/small.bin')).toBeNull();
    expect(await store.open('storage/large.bin')).toBeNull();
    expect(await keys(store, 'storage/')).toEqual([]);
  });

  it('keeps an empty file', async () => {
    const store = make();
    expect(await store.write('storage/empty.txt', Readable.from([]))).toBe(0);
    expect((await store.open('storage/empty.txt'))?.size).toBe(0);
  });

  it('refuses keys outside its namespaces', async () => {
    const store = make();
    await expect(store.write('../escape', Readable.from(['x']))).rejects.toThrow(/Unsafe/);
    expect(await store.open('storage/../../etc/passwd')).toBeNull();
  });
});

describe('s3 store', () => {
  it('streams a large body in bounded memory (parts of 8 MB, two at a time)', async () => {
    const store = new S3Store({ ...s3.settings, prefix: 'large/' });
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const megabytes = 512;
    const base = process.memoryUsage().rss;
    let peak = 0;
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < megabytes; i++) {
          peak = Math.max(peak, process.memoryUsage().rss - base);
          yield chunk;
        }
      })(),
    );
    expect(await store.write('storage/large.bin', body)).toBe(megabytes * 1024 * 1024);
    expect((await store.open('storage/large.bin'))?.size).toBe(megabytes * 1024 * 1024);
    // The S3 server runs in this process too; a body held in memory would add its 512 MB.
    expect(peak).toBeLessThan(256 * 1024 * 1024);
    await store.remove('storage/large.bin');
  }, 120_000);
});

describe('folder store', () => {
  it('never follows a symlink out of its folder', async () => {
    const store = folderStore();
    const outside = mkdtempSync(join(tmpdir(), 'lms-outside-'));
    folders.push(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(store.root, 'storage'), { recursive: true });
    symlinkSync(join(outside, 'secret.txt'), join(store.root, 'storage', 'link.txt'));
    expect(await store.open('storage/link.txt')).toBeNull();
  });
});
