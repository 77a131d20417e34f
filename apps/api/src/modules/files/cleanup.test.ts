import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
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
import { PNG } from '../../test/images.js';
import { storageCleanup } from '../../test/storageCleanup.js';

/** The cleanup on the default store, DATA_DIR's folder (the bucket: bucket.test.ts). */

describe(`cleanup of files in the folder (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let course: number;
  let lessonId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    // Files' times are the disk's (real time); the clock starts there.
    ctx.clock.set(new Date());
    author = (await clientAs(ctx, 'author')).client;
    course = await createCourse(ctx.db, 'Продажи', { is_published: true });
    lessonId = (await createModuleWith(ctx.db, course, { lessons: 1 })).lessonIds[0] as number;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const image = async (name: string) => {
    const { payload, headers } = multipart(
      { lesson_id: String(lessonId) },
      { field: 'image', name, type: 'image/png', data: PNG },
    );
    const res = await author.request('POST', '/api/upload-image', payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { file_path: string; original_filename: string; url: string };
  };

  it('removes what nothing refers to; a soft-deleted lesson keeps the file of its block', async () => {
    const kept = await image('в уроке.png');
    const loose = await image('забытая.png');
    const save = await author.put(`/api/courses/${course}/lessons/${lessonId}/contents`, {
      contents: [{ id: 'a', type: 'image', content: { ...kept, description: '' }, sort_order: 0 }],
    });
    expect(save.statusCode, save.body).toBe(200);
    // The lesson is deleted (softly): its file is a record like the lesson.
    expect((await author.delete(`/api/courses/lessons/${lessonId}`)).statusCode).toBe(200);
    const temp = join(ctx.config.dataDir, '.store-tmp');
    mkdirSync(temp, { recursive: true });
    writeFileSync(join(temp, 'left.part'), 'half');
    // What an earlier version left while receiving an upload.
    const earlier = join(ctx.config.dataDir, 'storage', 'tmp');
    mkdirSync(earlier, { recursive: true });
    writeFileSync(join(earlier, '0a1b.part'), 'earlier');
    const old = new Date(Date.now() - 3 * DAY);
    utimesSync(join(temp, 'left.part'), old, old);
    utimesSync(join(earlier, '0a1b.part'), old, old);

    const cleanup = storageCleanup(ctx);
    ctx.clock.advance(2 * DAY);
    expect(await cleanup.run({ dryRun: false })).toEqual({
      unreferenced: 1,
      strays: 0,
      packageFolders: 0,
      temporary: 2,
      bytes: PNG.length + 4 + 7,
    });
    const stored = (path: string) => existsSync(join(ctx.config.dataDir, 'storage', path));
    expect(stored(kept.file_path)).toBe(true);
    expect(stored(loose.file_path)).toBe(false);
    expect(existsSync(join(temp, 'left.part'))).toBe(false);
    expect(existsSync(join(earlier, '0a1b.part'))).toBe(false);
    const rows = await ctx.db.kysely.selectFrom('files').select('path').execute();
    expect(rows.map((r) => r.path)).toEqual([kept.file_path]);
    // Run again: nothing left to remove.
    expect(await cleanup.run({ dryRun: false })).toMatchObject({ unreferenced: 0, temporary: 0 });
  });
});
