import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCORM_LIMITS } from '@lms/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { badPackages, scormManifest, scormPackage, type TestScormPackage } from '../../../test/scormPackages.js';
import { readPackage } from './manifest.js';
import { PackageRefused, unpackPackage } from './unpack.js';

let work: string;
let target: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'scorm-read-'));
  target = join(work, 'package');
});
afterEach(() => rm(work, { recursive: true, force: true }));

const SMALL_LIMITS = { entries: 100, unpackedBytes: 10 * 1024 * 1024 };

async function unpackAndRead(zip: Buffer) {
  const zipPath = join(work, 'upload.zip');
  await writeFile(zipPath, zip);
  await unpackPackage(zipPath, target, SMALL_LIMITS);
  return readPackage(target);
}

async function refusal(attempt: Promise<unknown>): Promise<{ problem: string; detail?: string }> {
  try {
    await attempt;
  } catch (error) {
    if (!(error instanceof PackageRefused)) throw error;
    return error.detail === undefined ? { problem: error.problem } : { problem: error.problem, detail: error.detail };
  }
  return { problem: 'accepted' };
}

/** Writes files (path → content) under the package folder, as if unpacked. */
async function unpacked(files: Record<string, string | Buffer>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(target, path, '..'), { recursive: true });
    await writeFile(join(target, path), content);
  }
  return target;
}

const TWO_SCOS: TestScormPackage['scos'] = [
  { id: 'intro', title: 'Введение', mastery: 80, scaledPassing: 0.8 },
  { id: 'test', title: 'Тест', file: 'test files/start.html' },
];

describe('reading an unpacked package', () => {
  it.each([
    ['1.2', undefined, { standard: '1.2', edition: null }, [80, null]],
    ['2004', '2nd', { standard: '2004', edition: '2nd' }, [null, 0.8]],
    ['2004', '3rd', { standard: '2004', edition: '3rd' }, [null, 0.8]],
    ['2004', '4th', { standard: '2004', edition: '4th' }, [null, 0.8]],
  ] as const)('reads a SCORM %s %s package the test builder made', async (standard, edition, version, scores) => {
    const read = await unpackAndRead(await scormPackage({ standard, edition, title: 'Охрана труда', scos: TWO_SCOS }));
    expect(read).toMatchObject({ ...version, title: 'Охрана труда', root: '' });
    expect(read.scos.map((sco) => [sco.identifier, sco.title, sco.launch, sco.path, sco.isSco])).toEqual([
      ['intro', 'Введение', 'intro/index.html', 'intro/index.html', true],
      ['test', 'Тест', 'test%20files/start.html', 'test files/start.html', true],
    ]);
    const [intro] = read.scos;
    expect([intro?.masteryScore, intro?.scaledPassingScore]).toEqual(scores);
  });

  it('finds the package in the single top folder, and puts the folder in front of every launch', async () => {
    const read = await unpackAndRead(
      await scormPackage({ standard: '2004', topFolder: 'Мой курс', scos: [{ id: 'a', title: 'A' }] }),
    );
    expect(read.root).toBe('Мой курс/');
    expect(read.scos[0]).toMatchObject({
      launch: `${encodeURIComponent('Мой курс')}/a/index.html`,
      path: 'Мой курс/a/index.html',
    });
    expect(read.scos[0]?.launch.startsWith('%D0%9C%D0%BE%D0%B9%20')).toBe(true);
  });

  it('ignores what macOS archivers add beside the top folder', async () => {
    const read = await unpackAndRead(badPackages.inTopFolderWithMacLeftovers());
    expect(read).toMatchObject({ root: 'Course/', scos: [{ identifier: 'sco-1', launch: 'Course/sco-1/index.html' }] });
  });

  it.each([
    ['zipSlip', { problem: 'unsafe-name', detail: '../evil.html' }],
    ['absolutePath', { problem: 'unsafe-name', detail: '/tmp/evil.html' }],
    ['symlink', { problem: 'link', detail: 'passwd' }],
    ['encrypted', { problem: 'encrypted', detail: 'secret.html' }],
    ['zipBomb', { problem: 'too-large', detail: 'media/video.mp4' }],
    ['brokenManifest', { problem: 'bad-manifest' }],
    ['noManifest', { problem: 'no-manifest' }],
    ['missingLaunchFile', { problem: 'missing-file', detail: 'sco-1/index.html' }],
    ['manifestTooDeep', { problem: 'no-manifest' }],
  ] as const)('refuses the test builders’ %s', async (name, expected) => {
    const result = await refusal(unpackAndRead(badPackages[name]()));
    expect(result.problem).toBe(expected.problem);
    if ('detail' in expected) expect(result.detail).toBe(expected.detail);
  });

  it('refuses a folder whose root holds more than one folder, or a folder and a file', async () => {
    const manifest = scormManifest({ standard: '1.2', scos: [{ id: 'a', title: 'A' }] });
    await unpacked({ 'one/imsmanifest.xml': manifest, 'one/a/index.html': 'x', 'two/readme.txt': 'x' });
    expect(await refusal(readPackage(target))).toEqual({ problem: 'no-manifest' });
    await rm(join(target, 'two'), { recursive: true });
    await unpacked({ 'readme.txt': 'x' });
    expect(await refusal(readPackage(target))).toEqual({ problem: 'no-manifest' });
    await rm(join(target, 'readme.txt'));
    expect((await readPackage(target)).root).toBe('one/');
  });

  it('refuses a manifest over the size limit without reading it', async () => {
    const padding = ' '.repeat(SCORM_LIMITS.manifestBytes);
    await unpacked({ 'imsmanifest.xml': `<manifest>${padding}</manifest>` });
    expect((await refusal(readPackage(target))).problem).toBe('bad-manifest');
  });

  it('refuses a launch path that is a folder, or that a link leads out of the package', async () => {
    const manifest = scormManifest({ standard: '2004', scos: [{ id: 'a', title: 'A', file: 'a/start.html' }] });
    await unpacked({ 'imsmanifest.xml': manifest, 'a/start.html/index.html': 'a folder named like a file' });
    expect(await refusal(readPackage(target))).toEqual({ problem: 'missing-file', detail: 'a/start.html' });
    // The folder 'a' becomes a link to a folder beside the package that has the file.
    await rm(join(target, 'a'), { recursive: true });
    await mkdir(join(work, 'outside'));
    await writeFile(join(work, 'outside/start.html'), 'outside');
    await symlink(join(work, 'outside'), join(target, 'a'));
    expect(await refusal(readPackage(target))).toEqual({ problem: 'unsafe-name', detail: 'a/start.html' });
  });

  it('reads a manifest written in UTF-16 or with a byte order mark', async () => {
    const manifest = scormManifest({ standard: '1.2', title: 'Курс', scos: [{ id: 'a', title: 'A' }] });
    await unpacked({
      'imsmanifest.xml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(manifest, 'utf16le')]),
      'a/index.html': 'x',
    });
    expect((await readPackage(target)).title).toBe('Курс');
    await writeFile(join(target, 'imsmanifest.xml'), `\uFEFF${manifest}`);
    expect((await readPackage(target)).title).toBe('Курс');
  });
});
