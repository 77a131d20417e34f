import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { badPackages, scormPackage, zipFiles } from '../../../test/scormPackages.js';
import { deflatedZeros, makeZip, type TestZipEntry } from '../../../test/zipFiles.js';
import { PackageRefused, unpackPackage } from './unpack.js';

const LIMITS = { entries: 10, unpackedBytes: 1024 * 1024 };
const text = (content: string) => Buffer.from(content, 'utf8');

let work: string;
/** The folder the package is unpacked into lives here, alone: whatever else appears is a leftover. */
let storage: string;
let target: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'scorm-unpack-'));
  storage = join(work, 'storage');
  target = join(storage, 'package-1');
});
afterEach(() => rm(work, { recursive: true, force: true }));

async function archive(bytes: Buffer): Promise<string> {
  const path = join(work, 'upload.zip');
  await writeFile(path, bytes);
  return path;
}

/** The refusal's code and detail, or 'unpacked'. */
async function refusal(bytes: Buffer, limits = LIMITS): Promise<string> {
  try {
    await unpackPackage(await archive(bytes), target, limits);
  } catch (error) {
    if (error instanceof PackageRefused) return error.problem;
    throw error;
  }
  return 'unpacked';
}

/** What is in the storage folder after an attempt (nothing after a refusal). */
const leftovers = () => readdir(storage).catch(() => []);

describe('unpacking a package', () => {
  it('writes every file and folder, owner-only, and tells the files and bytes', async () => {
    const files = new Map<string, string | Buffer>([
      ['imsmanifest.xml', '<manifest/>'],
      ['sco/index.html', '<p>Привет</p>'],
      ['sco/media/clip.bin', Buffer.alloc(5000, 7)],
    ]);
    const result = await unpackPackage(await archive(await zipFiles(files)), target, LIMITS);
    expect(result).toEqual({
      files: 3,
      bytes: Buffer.byteLength('<manifest/>') + Buffer.byteLength('<p>Привет</p>') + 5000,
    });
    expect(await readFile(join(target, 'sco/index.html'), 'utf8')).toBe('<p>Привет</p>');
    expect(await readFile(join(target, 'sco/media/clip.bin'))).toEqual(Buffer.alloc(5000, 7));
    expect((await stat(join(target, 'sco/media'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(target, 'sco/index.html'))).mode & 0o777).toBe(0o600);
    expect(await leftovers()).toEqual(['package-1']);
  });

  it('reads ZIP64 archives and directory entries', async () => {
    const zip = new yazl.ZipFile();
    zip.addEmptyDirectory('empty/');
    zip.addBuffer(text('hello'), 'a/b.txt', { forceZip64Format: true });
    zip.end({ forceZip64Format: true, comment: '' });
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(Buffer.from(chunk));
    expect(await unpackPackage(await archive(Buffer.concat(chunks)), target, LIMITS)).toEqual({ files: 1, bytes: 5 });
    expect((await stat(join(target, 'empty'))).isDirectory()).toBe(true);
    expect(await readFile(join(target, 'a/b.txt'), 'utf8')).toBe('hello');
  });

  it('takes the contract limits by default', async () => {
    const bytes = await scormPackage({ standard: '1.2', scos: [{ id: 'sco-1', title: 'Раздел' }] });
    expect((await unpackPackage(await archive(bytes), target)).files).toBe(2);
  });

  it('refuses what is not a ZIP archive, or a damaged one', async () => {
    expect(await refusal(text('<html>not a zip</html>'))).toBe('not-zip');
    expect(await refusal(Buffer.alloc(0))).toBe('not-zip');
    const good = makeZip([{ name: 'a.html', data: text('x'.repeat(1000)) }]);
    // Cut before the central directory's end: the archive cannot be read.
    expect(await refusal(good.subarray(0, good.length - 30))).toBe('corrupt');
    // Data that is not deflate.
    expect(
      await refusal(makeZip([{ name: 'a.html', data: text('abc'), compressed: text('\xff\xff\xff garbage') }])),
    ).toBe('corrupt');
    // An unknown compression method (12: bzip2).
    const bzip = makeZip([{ name: 'a.html', data: text('abc') }]);
    bzip.writeUInt16LE(12, bzip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(await refusal(bzip)).toBe('corrupt');
    expect(await leftovers()).toEqual([]);
  });

  it('refuses encrypted entries', async () => {
    expect(await refusal(badPackages.encrypted())).toBe('encrypted');
  });

  it.each([
    ['../evil.html'],
    ['sco/../../evil.html'],
    ['/etc/evil.html'],
    ['C:/evil.html'],
    ['c:evil.html'],
    ['sco\\..\\..\\evil.html'],
    ['sco\\index.html'],
    ['evil\0.html'],
    // A name the file system cannot hold.
    [`sco/${'долгое-имя-'.repeat(30)}.html`],
    // 480 Cyrillic letters: 960 bytes in a store key, though each folder name fits a file system.
    [`${`${'я'.repeat(120)}/`.repeat(4)}x.txt`],
  ])('refuses the entry name %j as unsafe', async (name) => {
    expect(
      await refusal(
        makeZip([
          { name: 'index.html', data: text('ok') },
          { name, data: text('evil') },
        ]),
      ),
    ).toBe('unsafe-name');
    expect(await leftovers()).toEqual([]);
  });

  it('refuses the test builders’ zip-slip, absolute path and symbolic link', async () => {
    expect(await refusal(badPackages.zipSlip())).toBe('unsafe-name');
    expect(await refusal(badPackages.absolutePath())).toBe('unsafe-name');
    expect(await refusal(badPackages.symlink())).toBe('link');
    expect(await leftovers()).toEqual([]);
  });

  it('refuses two entries for one path, and a file where a folder must be', async () => {
    const entry = (name: string): TestZipEntry => ({ name, data: text(name) });
    expect(await refusal(makeZip([entry('a.html'), entry('a.html')]))).toBe('unsafe-name');
    expect(await refusal(makeZip([entry('a/b.html'), entry('./a//b.html')]))).toBe('unsafe-name');
    expect(await refusal(makeZip([entry('a'), entry('a/b.html')]))).toBe('unsafe-name');
    expect(await refusal(makeZip([entry('a/b.html'), entry('a')]))).toBe('unsafe-name');
    expect(await refusal(makeZip([entry('a/'), entry('a')]))).toBe('unsafe-name');
    // The same folder twice is harmless.
    expect(await refusal(makeZip([entry('a/'), entry('a/'), entry('a/b.html')]))).toBe('unpacked');
  });

  it('refuses more entries than the limit from the central directory, before writing anything', async () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.html`, data: text('x') }));
    expect(await refusal(makeZip(entries))).toBe('too-many-entries');
    expect(await refusal(makeZip(entries.slice(0, 10)))).toBe('unpacked');
  });

  it('refuses honest headers over the byte limit before writing anything', async () => {
    const big = makeZip([{ name: 'a.bin', data: Buffer.alloc(LIMITS.unpackedBytes + 1) }]);
    expect(await refusal(big)).toBe('too-large');
    expect(await leftovers()).toEqual([]);
    // Exactly the limit is allowed.
    expect(await refusal(makeZip([{ name: 'a.bin', data: Buffer.alloc(LIMITS.unpackedBytes) }]))).toBe('unpacked');
  });

  it('refuses a zip bomb whose headers lie, counting what inflates, and removes what it wrote', async () => {
    // 300 MB of zeros in an archive of about 300 KB whose headers claim 1 KiB.
    const bomb = badPackages.zipBomb();
    expect(bomb.length).toBeLessThan(400 * 1024);
    const error = await unpackPackage(await archive(bomb), target, {
      entries: 10,
      unpackedBytes: 10 * 1024 * 1024,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PackageRefused);
    expect(error).toMatchObject({ problem: 'too-large', detail: 'media/video.mp4' });
    expect(await leftovers()).toEqual([]);
  });

  it('refuses a header that understates the size, by the count across entries', async () => {
    const honest = { name: 'a.bin', data: Buffer.alloc(600 * 1024) };
    const lying = { name: 'b.bin', data: Buffer.alloc(0), compressed: deflatedZeros(600 * 1024), claimedSize: 10 };
    // The headers claim 600 KiB and 10 bytes, within the budget of 1 MiB; inflating says otherwise.
    expect(await refusal(makeZip([honest, lying]))).toBe('too-large');
    expect(await leftovers()).toEqual([]);
  });

  it('refuses an entry whose size within the limit is not what its headers say', async () => {
    const entry = { name: 'a.bin', data: Buffer.alloc(0), compressed: deflatedZeros(100), claimedSize: 10 };
    expect(await refusal(makeZip([{ name: 'index.html', data: text('ok') }, entry]))).toBe('corrupt');
    expect(await leftovers()).toEqual([]);
  });

  it('leaves an existing package in place when the new one is refused', async () => {
    await unpackPackage(await archive(makeZip([{ name: 'old.html', data: text('old') }])), target, LIMITS);
    const other = join(storage, 'package-2');
    await expect(unpackPackage(await archive(badPackages.zipSlip()), other, LIMITS)).rejects.toThrow(PackageRefused);
    expect(await leftovers()).toEqual(['package-1']);
    expect(await readFile(join(target, 'old.html'), 'utf8')).toBe('old');
  });
});
