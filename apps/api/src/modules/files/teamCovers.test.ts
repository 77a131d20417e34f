import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../test/harness.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  queriesDuring,
  type TestContext,
} from '../../test/harness.js';
import { PNG } from '../../test/images.js';

/**
 * A manager reads the covers of the courses of the people they manage (the analytics employee modal
 * shows them), whether or not the course is visible to the manager as a learner; nothing else.
 */
describe(`/storage: covers of a manager's team (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let manager: Client;
  let otherManager: Client;
  let homeless: Client;
  let anna: Client;
  let sales: number;
  const status = async (client: Client, path: string) => [path, (await client.get(`/storage/${path}`)).statusCode];

  async function coveredCourse(name: string, opts: { published?: boolean } = {}) {
    const id = await createCourse(ctx.db, name, { is_published: opts.published ?? true });
    const cover = `courses/${name}.png`;
    writeFileSync(join(ctx.config.dataDir, 'storage', cover), PNG);
    await ctx.db.kysely.updateTable('courses').set({ image_path: cover }).where('id', '=', id).execute();
    return { id, cover };
  }

  beforeAll(async () => {
    ctx = await createTestApp();
    mkdirSync(join(ctx.config.dataDir, 'storage', 'courses'), { recursive: true });
    mkdirSync(join(ctx.config.dataDir, 'storage', 'lessons'), { recursive: true });
    admin = (await clientAs(ctx, 'admin')).client;
    sales = await createDepartment(ctx.db, 'Продажи');
    const support = await createDepartment(ctx.db, 'Поддержка');
    manager = (await clientAs(ctx, 'manager', { department_id: sales })).client;
    otherManager = (await clientAs(ctx, 'manager', { department_id: support })).client;
    homeless = (await clientAs(ctx, 'manager')).client;
    const a = await clientAs(ctx, 'learner', { department_id: sales });
    anna = a.client;
    const boris = await createUser(ctx.db, { role: 'learner', department_id: sales });
    const gleb = await createUser(ctx.db, { role: 'learner', department_id: support });

    // Enrolled-only courses the managers are not enrolled in, so they do not see them as learners.
    const annas = await coveredCourse('annas');
    const borises = await coveredCourse('borises');
    const glebs = await coveredCourse('glebs');
    const draft = await coveredCourse('draft', { published: false });
    const nobodys = await coveredCourse('nobodys');
    const lessons = await createModuleWith(ctx.db, annas.id, { lessons: 1 });
    writeFileSync(join(ctx.config.dataDir, 'storage', 'lessons', 'inside.png'), PNG);
    await ctx.db.kysely
      .updateTable('lessons')
      .set({ image_path: 'lessons/inside.png' })
      .where('id', '=', lessons.lessonIds[0] as number)
      .execute();
    const attach = async (userId: number, courseIds: number[]) =>
      expect(
        (await admin.post('/api/admin/user-courses/attach', { user_id: userId, course_ids: courseIds })).statusCode,
      ).toBe(200);
    await attach(a.user.id, [annas.id, draft.id]);
    await attach(boris.id, [borises.id]);
    await attach(gleb.id, [glebs.id]);
    void nobodys;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("serves a manager the covers of the courses of their department's people", async () => {
    for (const path of ['courses/annas.png', 'courses/borises.png', 'courses/draft.png'])
      expect(await status(manager, path)).toEqual([path, 200]);
    expect(await status(otherManager, 'courses/glebs.png')).toEqual(['courses/glebs.png', 200]);
  });

  it('keeps every other refusal', async () => {
    // another department's course, a course nobody has, a lesson image of a team course
    for (const path of ['courses/glebs.png', 'courses/nobodys.png', 'lessons/inside.png'])
      expect(await status(manager, path)).toEqual([path, 404]);
    expect(await status(otherManager, 'courses/annas.png')).toEqual(['courses/annas.png', 404]);
    // a manager without a department manages nobody
    expect(await status(homeless, 'courses/annas.png')).toEqual(['courses/annas.png', 404]);
    // a learner sees their own courses' covers, not a colleague's
    expect(await status(anna, 'courses/annas.png')).toEqual(['courses/annas.png', 200]);
    expect(await status(anna, 'courses/borises.png')).toEqual(['courses/borises.png', 404]);
  });

  it('answers from one indexed query whose cost does not grow with the company', async () => {
    const statements = async () => queriesDuring(() => manager.get('/storage/courses/borises.png'));
    const before = await statements();
    // More people in the department and elsewhere, all enrolled in courses of their own.
    const crowd = await createCourse(ctx.db, 'crowd');
    for (let i = 0; i < 30; i++) {
      const u = await createUser(ctx.db, { role: 'learner', department_id: i % 2 === 0 ? sales : null });
      await admin.post('/api/admin/user-courses/attach', { user_id: u.id, course_ids: [crowd] });
    }
    const after = await statements();
    expect(after.length).toBe(before.length);
    expect((await manager.get('/storage/courses/borises.png')).statusCode).toBe(200);

    const team = after.filter((s) => /\benrollments\b/.test(s) && /\bdepartment_id\b/.test(s));
    expect(team).toHaveLength(1);
    if (ctx.db.kind !== 'sqlite') return;
    // SQLite's plan: the department's people by index, each one's enrollment by primary key; no scan.
    const text = team[0] as string;
    const params = Array.from(text.matchAll(/\?/g), () => 1);
    const plan = await ctx.db.kysely.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, params),
    );
    const details = plan.rows.map((r) => r.detail);
    expect(details.filter((d) => /^SCAN /.test(d))).toEqual([]);
    expect(details.some((d) => /^SEARCH u USING INDEX users_department_idx/.test(d))).toBe(true);
    expect(details.some((d) => /^SEARCH e .*\(user_id=\? AND course_id=\?\)/.test(d))).toBe(true);
  });
});
