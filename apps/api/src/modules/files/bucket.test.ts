import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import type { FileStore } from '../../platform/fileStore/fileStore.js';
import { FolderStore } from '../../platform/fileStore/folderStore.js';
import { S3Store } from '../../platform/fileStore/s3Store.js';
import { moveFiles } from '../../ops/moveFiles.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { startS3Server, type RunningS3 } from '../../test/s3Server.js';
import { scormPackage } from '../../test/scormPackages.js';
import { PNG } from '../../test/images.js';
import { storageCleanup } from '../../test/storageCleanup.js';

/** Files in an S3 bucket (STORAGE_URL=s3://…) through the whole API, and the folder↔bucket move. */

async function keys(store: FileStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const o of store.list(prefix)) found.push(o.key);
  return found.sort();
}

let s3: RunningS3;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
});

describe(`files in a bucket (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let bucket: S3Store;
  let course: number;
  let lessonId: number;

  beforeAll(async () => {
    const prefix = `co${Date.now().toString(36)}/`;
    ctx = await createTestApp({ ...s3.env, STORAGE_URL: `s3://${s3.settings.bucket}/${prefix}` });
    // Files' times are the bucket's (real time); the clock starts there.
    ctx.clock.set(new Date());
    bucket = new S3Store({ ...s3.settings, prefix });
    author = (await clientAs(ctx, 'author')).client;
    course = await createCourse(ctx.db, 'Продажи', { is_published: true });
    const made = await createModuleWith(ctx.db, course, { lessons: 1 });
    lessonId = made.lessonIds[0] as number;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const upload = (url: string, fields: Record<string, string>, file: Parameters<typeof multipart>[1]) => {
    const { payload, headers } = multipart(fields, file);
    return author.request('POST', url, payload, headers);
  };

  it('keeps uploads in the bucket, serves them with the same checks, keeps nothing of a refused one', async () => {
    expect(ctx.app.fileStore.kind).toBe('s3');
    const img = await upload(
      '/api/upload-image',
      { lesson_id: String(lessonId) },
      { field: 'image', name: 'схема.png', type: 'image/png', data: PNG },
    );
    expect(img.statusCode, img.body).toBe(200);
    const { file_path, url } = img.json().result as { file_path: string; url: string };
    expect(await keys(bucket, 'storage/')).toEqual([`storage/${file_path}`]);
    const got = await author.get(url);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    const { client: learner } = await clientAs(ctx, 'learner');
    expect((await learner.get(url)).statusCode).toBe(404);

    const notImage = await upload(
      '/api/upload-image',
      { lesson_id: String(lessonId) },
      { field: 'image', name: 'a.png', type: 'image/png', data: Buffer.from('MZ not an image at all') },
    );
    expect(notImage.statusCode).toBe(422);
    // Larger than one part of a multipart upload, then over the limit: the upload is aborted.
    const tooBig = await upload(
      '/api/upload-image',
      { lesson_id: String(lessonId) },
      {
        field: 'image',
        name: 'big.png',
        type: 'image/png',
        data: Buffer.concat([PNG, Buffer.alloc(21 * 1024 * 1024)]),
      },
    );
    expect(tooBig.statusCode).toBe(413);
    const doc = await upload(
      '/api/upload-file',
      { lesson_id: String(lessonId) },
      { field: 'file', name: 'Памятка.pdf', type: 'application/pdf', data: Buffer.alloc(9 * 1024 * 1024, 5) },
    );
    expect(doc.statusCode, doc.body).toBe(200);
    const docPath = doc.json().result.file_path as string;
    expect(await keys(bucket, 'storage/')).toEqual([`storage/${file_path}`, `storage/${docPath}`].sort());
    const downloaded = await author.get(`/storage/${docPath}`);
    expect(downloaded.rawPayload.length).toBe(9 * 1024 * 1024);
    expect(downloaded.headers['content-disposition']).toContain('filename*=UTF-8');
  });

  it('unpacks a SCORM package into the bucket and plays it from there', async () => {
    const created = await author.post('/api/courses/lessons', { module_id: (await firstModule()).id, kind: 'scorm' });
    const scormLesson = created.json().result.item.id as number;
    const zip = multipart(
      {},
      {
        field: 'file',
        name: 'package.zip',
        type: 'application/zip',
        data: await scormPackage({
          standard: '1.2',
          scos: [{ id: 'a', title: 'A' }],
          extraFiles: { 'a/video.bin': Buffer.from('0123456789') },
        }),
      },
    );
    const res = await author.request(
      'POST',
      `/api/courses/${course}/lessons/${scormLesson}/scorm`,
      zip.payload,
      zip.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const stored = await keys(bucket, 'scorm/');
    expect(stored.some((k) => k.endsWith('/a/index.html'))).toBe(true);
    expect(stored.some((k) => k.endsWith('/imsmanifest.xml'))).toBe(true);
    // Nothing of it stays on this machine's disk.
    expect(readdirSync(join(ctx.config.dataDir, '.scorm-incoming'))).toEqual([]);

    const put = await author.put(`/api/courses/${course}/lessons/${scormLesson}`, {
      name: 'Пакет',
      is_published: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    const launch = await author.post(`/api/courses/${course}/lessons/${scormLesson}/scorm/launch`, {});
    expect(launch.statusCode, launch.body).toBe(200);
    const path = new URL(launch.json().result.url as string, 'http://x').pathname;
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/lms/runtime.js"></script>');
    const asset = path.replace(/index\.html$/, 'video.bin');
    const whole = await ctx.app.inject({ method: 'GET', url: asset });
    expect([whole.statusCode, whole.body, whole.headers['accept-ranges']]).toEqual([200, '0123456789', 'bytes']);
    const part = await ctx.app.inject({ method: 'GET', url: asset, headers: { range: 'bytes=2-5' } });
    expect([part.statusCode, part.body, part.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/10']);
    const tail = await ctx.app.inject({ method: 'GET', url: asset, headers: { range: 'bytes=-3' } });
    expect([tail.statusCode, tail.body]).toEqual([206, '789']);
    const outside = await ctx.app.inject({ method: 'GET', url: asset, headers: { range: 'bytes=20-30' } });
    expect(outside.statusCode).toBe(416);
    const again = await ctx.app.inject({ method: 'GET', url: asset, headers: { 'if-none-match': whole.headers.etag } });
    expect(again.statusCode).toBe(304);
    const escape = await ctx.app.inject({
      method: 'GET',
      url: path.replace(/a\/index\.html$/, '..%2F..%2Fstorage%2Fx'),
    });
    expect(escape.statusCode).toBe(404);
  });

  async function firstModule(): Promise<{ id: number }> {
    return ctx.db.kysely.selectFrom('modules').select('id').where('course_id', '=', course).executeTakeFirstOrThrow();
  }

  it('cleans up in the bucket what nothing refers to, and nothing else', async () => {
    const cover = await upload(
      `/api/courses/${course}/image`,
      {},
      { field: 'image', name: 'c.png', type: 'image/png', data: PNG },
    );
    expect(cover.statusCode, cover.body).toBe(200);
    const coverKey = `storage/${(cover.json().result.image as string).replace(/^storage\//, '')}`;
    const loose = await upload(
      '/api/upload-image',
      { lesson_id: String(lessonId) },
      { field: 'image', name: 'loose.png', type: 'image/png', data: PNG },
    );
    const looseKey = `storage/${loose.json().result.file_path as string}`;
    await bucket.write('storage/lessons/stray.bin', Readable.from([Buffer.from('stray')]));
    await bucket.write('scorm/pdeadbeef/index.html', Readable.from([Buffer.from('<html>')]));
    await bucket.write('storage/json/social.links.json', Readable.from([Buffer.from('[]')]));
    const before = await keys(bucket, '');

    const cleanup = storageCleanup(ctx, bucket);
    // Within a day of the upload nothing goes: the form that refers to it may not be saved yet.
    expect(await cleanup.run({ dryRun: false })).toMatchObject({ unreferenced: 0, strays: 0, packageFolders: 0 });
    ctx.clock.advance(2 * DAY);
    const dry = await cleanup.run({ dryRun: true });
    // The first test's image and document (no block was saved with them) and this test's loose image.
    expect(dry).toMatchObject({ unreferenced: 3, strays: 1, packageFolders: 1 });
    expect(await keys(bucket, '')).toEqual(before);

    const done = await cleanup.run({ dryRun: false });
    expect(done).toEqual(dry);
    const after = await keys(bucket, '');
    expect(after).toContain(coverKey);
    expect(after).toContain('storage/json/social.links.json');
    expect(after).not.toContain(looseKey);
    expect(after).not.toContain('storage/lessons/stray.bin');
    expect(after.some((k) => k.startsWith('scorm/pdeadbeef/'))).toBe(false);
    // The package of a version stays, as its row does.
    expect(after.some((k) => k.startsWith('scorm/') && k.endsWith('/a/index.html'))).toBe(true);
    const rows = await ctx.db.kysely.selectFrom('files').select('path').execute();
    expect(rows.map((r) => `storage/${r.path}`).sort()).toEqual(
      after.filter((k) => k.startsWith('storage/') && !k.startsWith('storage/json/')),
    );
  });
});

describe('moving files between the folder and a bucket', () => {
  it('moves every file there and back, and can be run again after a stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-move-'));
    try {
      const folder = new FolderStore(dir);
      const bucket = new S3Store({ ...s3.settings, prefix: `move${Date.now().toString(36)}/` });
      const files: Record<string, Buffer> = {
        'storage/lessons/a.pdf': Buffer.alloc(9 * 1024 * 1024, 1),
        'storage/courses/b.png': PNG,
        'storage/json/social.links.json': Buffer.from('[]'),
        'scorm/p1/index.html': Buffer.from('<html>'),
        'scorm/p1/Курс продаж/страница 1.html': Buffer.from('<p>'),
      };
      for (const [key, bytes] of Object.entries(files)) await folder.write(key, Readable.from([bytes]));
      // A first run that stopped after copying one file, keeping the source.
      await bucket.write('storage/courses/b.png', Readable.from([PNG]));

      const there = await moveFiles(folder, bucket, { keepSource: false });
      expect(there).toEqual({ copied: 4, present: 1, bytes: 9 * 1024 * 1024 + 2 + 6 + 3, removed: 5 });
      expect(await keys(bucket, '')).toEqual(Object.keys(files).sort());
      expect(await keys(folder, '')).toEqual([]);
      const big = await bucket.open('storage/lessons/a.pdf');
      expect(big?.size).toBe(9 * 1024 * 1024);

      const back = await moveFiles(bucket, folder, { keepSource: true });
      expect(back).toMatchObject({ copied: 5, present: 0, removed: 0 });
      expect(await keys(folder, '')).toEqual(Object.keys(files).sort());
      expect(await keys(bucket, '')).toEqual(Object.keys(files).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
