import { createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailable } from '../../platform/fileStore/fileStore.js';
import { S3Store } from '../../platform/fileStore/s3Store.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { PNG } from '../../test/images.js';
import { multipart } from '../../test/multipart.js';
import { startS3Server, type RunningS3 } from '../../test/s3Server.js';

/**
 * The bucket going away under a running server: downloads and uploads are told to come back later
 * (503 in the API's format), nothing half-kept is recorded, and the server stays up.
 */
describe(`a bucket that stops answering (${dialectName})`, () => {
  let s3: RunningS3;
  let ctx: TestContext;
  let author: Client;
  let lessonId: number;

  beforeAll(async () => {
    s3 = await startS3Server();
    ctx = await createTestApp(s3.env);
    ctx.clock.set(new Date());
    author = (await clientAs(ctx, 'author')).client;
    const course = await createCourse(ctx.db, 'Склад', { is_published: true });
    lessonId = (await createModuleWith(ctx.db, course, { lessons: 1 })).lessonIds[0] as number;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const uploadImage = () => {
    const { payload, headers } = multipart(
      { lesson_id: String(lessonId) },
      { field: 'image', name: 'схема.png', type: 'image/png', data: PNG },
    );
    return author.request('POST', '/api/upload-image', payload, headers);
  };
  const unavailable = {
    result: {
      success: false,
      message: 'Хранилище файлов временно недоступно. Повторите попытку через несколько минут.',
    },
  };
  const filesRecorded = async () =>
    Number(
      (
        await ctx.db.kysely
          .selectFrom('files')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 503 for downloads and uploads, and records nothing', async () => {
    const kept = await uploadImage();
    expect(kept.statusCode, kept.body).toBe(200);
    const url = kept.json().result.url as string;
    expect((await author.get(url)).statusCode).toBe(200);
    const recorded = await filesRecorded();

    await s3.stop();
    const download = await author.get(url);
    expect([download.statusCode, download.json()]).toEqual([503, unavailable]);
    const upload = await uploadImage();
    expect([upload.statusCode, upload.json()]).toEqual([503, unavailable]);
    expect(await filesRecorded()).toBe(recorded);
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    // Everything that does not need the bucket goes on.
    expect((await author.get('/api/courses')).statusCode).toBe(200);
  });
});

describe(`a file gone or a store failing between the check and the bytes (${dialectName})`, () => {
  let s3: RunningS3;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.stop();
  });

  it('a file removed after it was found is a 404, not a 500', async () => {
    const store = new S3Store(s3.settings);
    await store.write('storage/lessons/gone.pdf', Readable.from([Buffer.from('%PDF')]));
    const found = await store.open('storage/lessons/gone.pdf');
    await store.remove('storage/lessons/gone.pdf');
    await expect(found?.stream()).rejects.toMatchObject({ statusCode: 404 });
    store.destroy();
  });

  it("answers a failing download's error without the file's name or type", async () => {
    let failing = false;
    const ctx = await createTestApp(
      {},
      {
        fileStore: (store) => ({
          kind: store.kind,
          location: store.location,
          write: (key, body, options) => store.write(key, body, options),
          open: async (key) => {
            const found = await store.open(key);
            return (
              found && {
                ...found,
                stream: (range) =>
                  failing ? Promise.reject(new StoreUnavailable(new Error('down'))) : found.stream(range),
              }
            );
          },
          remove: (key) => store.remove(key),
          list: (prefix) => store.list(prefix),
          probe: () => store.probe(),
        }),
      },
    );
    try {
      const author = (await clientAs(ctx, 'author')).client;
      const course = await createCourse(ctx.db, 'Склад', { is_published: true });
      const lesson = (await createModuleWith(ctx.db, course, { lessons: 1 })).lessonIds[0] as number;
      const { payload, headers } = multipart(
        { lesson_id: String(lesson) },
        { field: 'file', name: 'Памятка.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 памятка') },
      );
      const doc = await author.request('POST', '/api/upload-file', payload, headers);
      expect(doc.statusCode, doc.body).toBe(200);
      const url = `/storage/${doc.json().result.file_path as string}`;
      expect((await author.get(url)).headers['content-disposition']).toContain('filename*=UTF-8');
      failing = true;
      const res = await author.get(url);
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await ctx.close();
    }
  });
});

describe('a bucket that takes the connection and never answers', () => {
  it('is StoreUnavailable after the answer timeout, not a request held for ever', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const store = new S3Store({
      bucket: 'b',
      prefix: '',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      answerTimeoutMs: 200,
    });
    try {
      await expect(store.open('storage/lessons/a.png')).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(store.write('storage/lessons/b.png', Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(
        StoreUnavailable,
      );
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      store.destroy();
    }
  });
});
