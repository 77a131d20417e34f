import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, MINUTE, iso } from './clock.js';
import { IDEMPOTENCY_MESSAGES } from './idempotency.js';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  type TestContext,
} from '../test/harness.js';
import { multipart } from '../test/multipart.js';
import { PNG } from '../test/images.js';

describe(`POSTs with an Idempotency-Key (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let adminId: number;
  let adminEmail: string;
  beforeEach(async () => {
    ctx = await createTestApp();
    const signedIn = await clientAs(ctx, 'admin');
    admin = signedIn.client;
    adminId = signedIn.user.id;
    adminEmail = signedIn.user.email;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const group = (name: string) => ({ name, user_ids: [], course_ids: [] });
  const createGroup = (client: Client, name: string, key?: string) =>
    client.post('/api/study-groups', group(name), key === undefined ? {} : { 'idempotency-key': key });
  const groupNames = async () =>
    (await ctx.db.kysely.selectFrom('study_groups').select('name').orderBy('id').execute()).map((r) => r.name);
  const keyRows = () => ctx.db.kysely.selectFrom('idempotency_keys').selectAll().execute();

  it('runs a POST once per key: the resend gets the first answer again', async () => {
    const first = await createGroup(admin, 'Новички', 'key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replay']).toBeUndefined();
    const again = await createGroup(admin, 'Новички', 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    expect(await groupNames()).toEqual(['Новички']);

    // Another call is another key.
    expect((await createGroup(admin, 'Новички 2', 'key-2')).statusCode).toBe(201);
    expect(await groupNames()).toEqual(['Новички', 'Новички 2']);
  });

  it("keeps each user's keys apart", async () => {
    const other = (await clientAs(ctx, 'admin')).client;
    expect((await createGroup(admin, 'Первая', 'shared')).statusCode).toBe(201);
    const theirs = await createGroup(other, 'Вторая', 'shared');
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replay']).toBeUndefined();
    expect(await groupNames()).toEqual(['Первая', 'Вторая']);
  });

  it('refuses a key whose request is under way or was cut off (409) and runs nothing', async () => {
    // What a process that died mid-request leaves behind: the claim without an answer.
    await ctx.db.kysely
      .insertInto('idempotency_keys')
      .values({ user_id: adminId, key: 'cut-off', request: 'POST /api/study-groups', created_at: iso(ctx.clock.now()) })
      .execute();
    const res = await createGroup(admin, 'Новички', 'cut-off');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ result: { success: false, message: IDEMPOTENCY_MESSAGES.inProgress } });
    expect(await groupNames()).toEqual([]);
    expect(await keyRows()).toMatchObject([{ key: 'cut-off', status: null }]);
  });

  it('gives the key back when the answer is not a success: the corrected resend runs', async () => {
    const refused = await createGroup(admin, '', 'fix-me');
    expect(refused.statusCode).toBe(422);
    expect(await keyRows()).toEqual([]);
    const fixed = await createGroup(admin, 'Исправленная', 'fix-me');
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replay']).toBeUndefined();
    expect(await groupNames()).toEqual(['Исправленная']);
  });

  it('refuses a malformed key (400) and a key used for another request (422)', async () => {
    for (const key of ['', 'a'.repeat(65), 'ключ', 'a b', 'a_b']) {
      const res = await createGroup(admin, 'Новички', key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toEqual({ result: { success: false, message: IDEMPOTENCY_MESSAGES.badKey } });
    }
    expect((await createGroup(admin, 'Новички', 'a'.repeat(64))).statusCode).toBe(201);
    const elsewhere = await admin.post(
      '/api/admin/departments',
      { name: 'Отдел' },
      { 'idempotency-key': 'a'.repeat(64) },
    );
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().result.message).toBe(IDEMPOTENCY_MESSAGES.otherRequest);
    expect(await groupNames()).toEqual(['Новички']);
    expect(await ctx.db.kysely.selectFrom('departments').select('id').execute()).toEqual([]);
    // The same route with another id is another request too.
    const [first, second] = [await createCourse(ctx.db, 'Первый'), await createCourse(ctx.db, 'Второй')];
    const learner = await createUser(ctx.db, { role: 'learner' });
    const assign = (course: number) =>
      admin.post(
        `/api/courses/${course}/assignment/users`,
        { user_ids: [learner.id] },
        { 'idempotency-key': 'per-course' },
      );
    const assigned = await assign(first);
    expect(assigned.statusCode, assigned.body).toBeLessThan(300);
    const other = await assign(second);
    expect([other.statusCode, other.json().result.message]).toEqual([422, IDEMPOTENCY_MESSAGES.otherRequest]);
  });

  it('forgets a key after a day: the pass deletes it, and an older one is new again even before', async () => {
    expect((await createGroup(admin, 'Первая', 'old')).statusCode).toBe(201);
    expect((await createGroup(admin, 'Вторая', 'older')).statusCode).toBe(201);
    ctx.clock.advance(DAY - MINUTE);
    // The session has idled out meanwhile; the keys are the user's, not the session's.
    await admin.signIn(adminEmail);
    expect(await ctx.app.jobs.pruneIdempotencyKeys()).toBe(0);
    expect((await createGroup(admin, 'Первая', 'old')).headers['idempotent-replay']).toBe('true');

    ctx.clock.advance(MINUTE);
    // Not yet pruned, but past its lifetime: claimed anew.
    const renewed = await createGroup(admin, 'Первая снова', 'old');
    expect(renewed.statusCode).toBe(201);
    expect(renewed.headers['idempotent-replay']).toBeUndefined();
    expect(await ctx.app.jobs.pruneIdempotencyKeys()).toBe(1);
    expect((await keyRows()).map((r) => r.key)).toEqual(['old']);
    const afterPrune = await createGroup(admin, 'Вторая снова', 'older');
    expect(afterPrune.headers['idempotent-replay']).toBeUndefined();
    expect(await groupNames()).toEqual(['Первая', 'Вторая', 'Первая снова', 'Вторая снова']);
  });

  it('leaves requests without the header, GETs and public routes as they are', async () => {
    expect((await createGroup(admin, 'Новички')).statusCode).toBe(201);
    expect((await createGroup(admin, 'Новички')).statusCode).toBe(201);
    expect(await groupNames()).toEqual(['Новички', 'Новички']);
    expect((await admin.get('/api/study-groups', { 'idempotency-key': 'x y' })).statusCode).toBe(200);
    // A public route's answer may set cookies that a replay would not give: keys are not used there.
    expect((await admin.post('/api/logout', {}, { 'idempotency-key': 'out' })).statusCode).toBeLessThan(300);
    expect(await keyRows()).toEqual([]);
  });

  it('claims a multipart upload and replays its answer without reading the file again', async () => {
    const courseId = await createCourse(ctx.db);
    const { lessonIds } = await createModuleWith(ctx.db, courseId, { lessons: 1 });
    const upload = () => {
      const { payload, headers } = multipart(
        { lesson_id: String(lessonIds[0]) },
        { field: 'image', name: 'схема.png', type: 'image/png', data: PNG },
      );
      return admin.request('POST', '/api/upload-image', payload, { ...headers, 'idempotency-key': 'upload-1' });
    };
    const first = await upload();
    expect(first.statusCode).toBe(200);
    const again = await upload();
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await ctx.db.kysely.selectFrom('files').select('path').execute()).toHaveLength(1);
  });
});
