import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
