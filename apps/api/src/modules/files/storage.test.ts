import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientAs, createTestApp, dialectName, type TestContext } from '../../test/harness.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0dd14a9b0000000049454e44ae426082',
  'hex',
);

describe(`/storage (${dialectName})`, () => {
  let ctx: TestContext;
  let learner: Client;
  beforeAll(async () => {
    ctx = await createTestApp();
    const root = join(ctx.config.dataDir, 'storage');
    mkdirSync(join(root, 'lessons'), { recursive: true });
    writeFileSync(join(root, 'lessons', 'pic.png'), PNG);
    writeFileSync(join(root, 'lessons', 'a1b2.txt'), 'памятка');
    writeFileSync(join(ctx.config.dataDir, 'secret.txt'), 'do not serve');
    symlinkSync(join(ctx.config.dataDir, 'secret.txt'), join(root, 'lessons', 'link.txt'));
    await ctx.db.kysely
      .insertInto('files')
      .values({ path: 'lessons/a1b2.txt', original_filename: 'Памятка сотрудника.txt', mime: 'text/plain', size: 14 })
      .execute();
    learner = (await clientAs(ctx, 'learner')).client;
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
    expect(res.rawPayload.equals(PNG)).toBe(true);
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
      const res = await learner.get(path);
      expect([path, res.statusCode]).toEqual([path, 404]);
    }
    expect((await learner.get('/storage/%E0%A4%A')).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await new Client(ctx.app).get('/storage/lessons/pic.png')).statusCode).toBe(401);
  });
});
