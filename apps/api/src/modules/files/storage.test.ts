import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { PNG } from '../../test/images.js';

describe(`/storage (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  let author: Client;
  beforeAll(async () => {
    ctx = await createTestApp();
    const root = join(ctx.config.dataDir, 'storage');
    mkdirSync(join(root, 'lessons'), { recursive: true });
    writeFileSync(join(root, 'lessons', 'pic.png'), PNG);
    writeFileSync(join(root, 'lessons', 'a1b2.txt'), 'памятка');
    writeFileSync(join(root, 'lessons', 'draft.png'), PNG);
    writeFileSync(join(root, 'lessons', 'hidden.png'), PNG);
    writeFileSync(join(root, 'lessons', 'loose.png'), PNG);
    writeFileSync(join(ctx.config.dataDir, 'secret.txt'), 'do not serve');
    symlinkSync(join(ctx.config.dataDir, 'secret.txt'), join(root, 'lessons', 'link.txt'));
    await ctx.db.kysely
      .insertInto('files')
      .values({ path: 'lessons/a1b2.txt', original_filename: 'Памятка сотрудника.txt', mime: 'text/plain', size: 14 })
      .execute();
    const k = ctx.db.kysely;
    // Published content of a course every learner sees.
    const open = await createCourse(ctx.db, 'Открытый', { is_published: true });
    await k.updateTable('courses').set({ accessibility: 'everyone' }).where('id', '=', open).execute();
    const visible = await createModuleWith(ctx.db, open, { lessons: 1, unpublishedLessons: 1 });
    const [lesson, draftLesson] = visible.lessonIds as [number, number];
    await k.updateTable('lessons').set({ image_path: 'lessons/pic.png' }).where('id', '=', lesson).execute();
    await k.updateTable('lessons').set({ image_path: 'lessons/draft.png' }).where('id', '=', draftLesson).execute();
    await k
      .insertInto('lesson_contents')
      .values({ lesson_id: lesson, type: 'file', file_path: 'lessons/a1b2.txt', original_filename: 'x', content: null })
      .execute();
    // A course only its enrolled learners see.
    const closed = await createCourse(ctx.db, 'Закрытый', { is_published: true });
    const hidden = await createModuleWith(ctx.db, closed, { lessons: 1 });
    await k
      .updateTable('lessons')
      .set({ image_path: 'lessons/hidden.png' })
      .where('id', '=', hidden.lessonIds[0] as number)
      .execute();
    learner = (await clientAs(ctx, 'learner')).client;
    author = (await clientAs(ctx, 'author')).client;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('serves an image inline with nosniff and a sandbox policy', async () => {
    const res = await learner.get('/storage/lessons/pic.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it('serves a learner only files of published content of courses they see; staff see every file', async () => {
    for (const path of ['lessons/draft.png', 'lessons/hidden.png', 'lessons/loose.png']) {
      const res = await learner.get(`/storage/${path}`);
      expect([path, res.statusCode, res.json().result.message]).toEqual([path, 404, 'Файл не найден']);
      expect([path, (await author.get(`/storage/${path}`)).statusCode]).toEqual([path, 200]);
    }
  });

  it('sends other files as attachments under their original name', async () => {
    const res = await learner.get('/storage/lessons/a1b2.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_______ __________.txt"; filename*=UTF-8''${encodeURIComponent('Памятка сотрудника.txt')}`,
    );
  });

  it('never serves outside its folder', async () => {
    for (const path of [
      '/storage/../secret.txt',
      '/storage/%2e%2e/secret.txt',
      '/storage/lessons/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/storage/lessons/link.txt',
      '/storage/lessons',
      '/storage/nothing.png',
      '/storage/%25',
    ]) {
      const res = await author.get(path);
      expect([path, res.statusCode]).toEqual([path, 404]);
    }
    expect((await author.get('/storage/%E0%A4%A')).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await new Client(ctx.app).get('/storage/lessons/pic.png')).statusCode).toBe(401);
  });
});
