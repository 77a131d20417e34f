import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../platform/clock.js';
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
import { badPackages, scormPackage, type TestScormPackage } from '../../test/scormPackages.js';

/** SCORM packages through the API (docs/rules.md §SCORM packages), with packages built by the test. */

const zipUpload = (data: Buffer, name = 'package.zip') =>
  multipart({}, { field: 'file', name, type: 'application/zip', data });

/** The launch address's path and its capability. */
const launchParts = (url: string) => {
  const m = /\/scorm-content\/([^/]+)\/pkg\/(.*)$/.exec(url);
  if (!m) throw new Error(`not a launch address: ${url}`);
  return { token: m[1] as string, path: `/scorm-content/${m[1]}/pkg/${m[2]}` };
};

describe(`SCORM packages (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let learner: Client;
  let learnerId: number;
  let learnerLogin: { email: string; password: string };
  let admin: Client;
  let course: number;
  let moduleId: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    author = (await clientAs(ctx, 'author')).client;
    admin = (await clientAs(ctx, 'admin')).client;
    const l = await clientAs(ctx, 'learner', { first_name: 'Анна', last_name: 'Смирнова' });
    learner = l.client;
    learnerId = l.user.id;
    learnerLogin = l.user;
    course = await createCourse(ctx.db, 'Продажи', { is_published: true });
    await ctx.db.kysely
      .updateTable('courses')
      .set({ accessibility: 'enrolled_only' })
      .where('id', '=', course)
      .execute();
    ({ moduleId } = await createModuleWith(ctx.db, course, { lessons: 1, name: 'Модуль' }));
  });
  afterEach(async () => {
    await ctx.close();
  });

  const enroll = () => admin.post('/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [course] });

  async function scormLesson(options: TestScormPackage, publish = true): Promise<number> {
    const created = await author.post('/api/courses/lessons', { module_id: moduleId, kind: 'scorm' });
    expect(created.statusCode).toBe(201);
    const lessonId = created.json().result.item.id as number;
    const upload = zipUpload(await scormPackage(options));
    const res = await author.request(
      'POST',
      `/api/courses/${course}/lessons/${lessonId}/scorm`,
      upload.payload,
      upload.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    if (publish) {
      const put = await author.put(`/api/courses/${course}/lessons/${lessonId}`, { name: 'Пакет', is_published: true });
      expect(put.statusCode, put.body).toBe(200);
    }
    return lessonId;
  }

  async function launch(lessonId: number, sco?: string) {
    const res = await learner.post(`/api/courses/${course}/lessons/${lessonId}/scorm/launch`, sco ? { sco } : {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { url: string; origin: string; sandbox: string; sco: string };
  }

  /** What the runtime of a launch starts from (the JSON in its script). */
  async function startingCmi(token: string): Promise<Record<string, unknown>> {
    const res = await ctx.app.inject({ method: 'GET', url: `/scorm-content/${token}/lms/runtime.js` });
    expect(res.statusCode).toBe(200);
    const m = /var cfg = (\{.*\});\n/.exec(res.body);
    if (!m?.[1]) throw new Error('no config in the runtime');
    return (JSON.parse(m[1]) as { cmi: Record<string, unknown> }).cmi;
  }

  /** A commit as the runtime sends it: the whole CMI as plain text, no cookie, from a null origin. */
  const commit = (token: string, cmi: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: `/scorm-content/${token}/lms/commit`,
      payload: JSON.stringify({ cmi }),
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'null', 'sec-fetch-site': 'cross-site' },
    });

  const state = async (lessonId: number) =>
    (await learner.get(`/api/courses/${course}/lessons/${lessonId}/scorm/state`)).json().result.scorm;

  it('an author adds a SCORM item, cannot publish it empty, uploads a 1.2 package and sees its version', async () => {
    const created = await author.post('/api/courses/lessons', { module_id: moduleId, kind: 'scorm' });
    expect(created.json().result.item).toMatchObject({ name: 'Новый SCORM-пакет', type: 'lesson', kind: 'scorm' });
    const lessonId = created.json().result.item.id as number;
    const early = await author.put(`/api/courses/${course}/lessons/${lessonId}`, { name: 'Пакет', is_published: true });
    expect(early.statusCode).toBe(422);
    expect(early.json().result.message).toBe('Сначала загрузите SCORM-пакет, затем опубликуйте его');

    const upload = zipUpload(
      await scormPackage({
        standard: '1.2',
        title: 'Техника продаж',
        scos: [{ id: 'intro', title: 'Введение', mastery: 80 }],
      }),
      'sales.zip',
    );
    const res = await author.request(
      'POST',
      `/api/courses/${course}/lessons/${lessonId}/scorm`,
      upload.payload,
      upload.headers,
    );
    expect(res.json().result).toMatchObject({
      message: 'SCORM-пакет загружен',
      package: {
        version: 1,
        standard: '1.2',
        title: 'Техника продаж',
        scos: [{ identifier: 'intro', title: 'Введение' }],
        mastery_score: 80,
        original_filename: 'sales.zip',
        learners: 0,
      },
    });
    const lesson = (await author.get(`/api/courses/${course}/lessons/${lessonId}`)).json().result.lesson;
    expect(lesson.kind).toBe('scorm');
    const versions = (await author.get(`/api/courses/${course}/lessons/${lessonId}/scorm`)).json().result.versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect((await learner.get(`/api/courses/${course}/lessons/${lessonId}/scorm`)).statusCode).toBe(403);
  });

  it('refuses broken packages with the problem named, keeping nothing of them', async () => {
    const created = await author.post('/api/courses/lessons', { module_id: moduleId, kind: 'scorm' });
    const lessonId = created.json().result.item.id as number;
    const cases: [Buffer, string][] = [
      [Buffer.from('not a zip at all'), 'Файл не является ZIP-архивом'],
      [await badPackages.zipSlip(), 'недопустимым путем'],
      [await badPackages.noManifest(), 'нет файла imsmanifest.xml'],
      [await badPackages.brokenManifest(), 'imsmanifest.xml не удалось прочитать'],
      [await badPackages.missingLaunchFile(), 'нет файла, который указан'],
    ];
    for (const [data, text] of cases) {
      const upload = zipUpload(data);
      const res = await author.request(
        'POST',
        `/api/courses/${course}/lessons/${lessonId}/scorm`,
        upload.payload,
        upload.headers,
      );
      expect(res.statusCode, text).toBe(422);
      expect(res.json().result.message).toContain(text);
    }
    const left: string[] = [];
    for await (const object of ctx.app.fileStore.list('scorm/')) left.push(object.key);
    expect(left).toEqual([]);
    expect(readdirSync(join(ctx.config.dataDir, '.scorm-incoming'))).toEqual([]);
    // A plain lesson takes no package.
    const plain = await author.post('/api/courses/lessons', { module_id: moduleId });
    const upload = zipUpload(await scormPackage({ standard: '1.2', scos: [{ id: 'a', title: 'A' }] }));
    const refused = await author.request(
      'POST',
      `/api/courses/${course}/lessons/${plain.json().result.item.id}/scorm`,
      upload.payload,
      upload.headers,
    );
    expect(refused.json().result.message).toBe('Это не SCORM-урок');
  });

  it('a learner plays a 1.2 package: served sandboxed with the runtime, commits kept, completed by the package', async () => {
    const lessonId = await scormLesson({ standard: '1.2', scos: [{ id: 'intro', title: 'Введение' }] });
    expect((await learner.post(`/api/courses/${course}/lessons/${lessonId}/scorm/launch`, {})).statusCode).toBe(404);
    await enroll();
    expect(await state(lessonId)).toMatchObject({ status: 'not_started', version: 1, standard: '1.2' });

    const first = await launch(lessonId);
    expect(first).toMatchObject({ origin: 'null', sco: 'intro' });
    expect(first.sandbox).toBe('allow-scripts allow-forms allow-popups allow-modals allow-downloads');
    const { token, path } = launchParts(first.url);
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<script src="/scorm-content/${token}/lms/runtime.js"></script>`);
    expect(page.headers['content-security-policy']).toBe(`sandbox ${first.sandbox}`);
    expect(page.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['set-cookie']).toBeUndefined();

    const cmi = await startingCmi(token);
    expect(cmi).toMatchObject({
      core: {
        student_id: String(learnerId),
        student_name: 'Смирнова, Анна',
        entry: 'ab-initio',
        lesson_status: 'not attempted',
      },
    });
    const modules = async () => (await learner.get(`/api/courses/${course}/modules-structured`)).json().result.modules;
    const item = async () =>
      (await modules())
        .flatMap((m: { lessonsList: { id: number }[] }) => m.lessonsList)
        .find((i: { id: number }) => i.id === lessonId);
    expect(await item()).toMatchObject({ kind: 'scorm', score: null, completed_at: null });
    expect((await item()).started_at).not.toBeNull();

    const saved = await commit(token, {
      core: { lesson_location: 'page-2', lesson_status: 'incomplete', exit: 'suspend', session_time: '00:10:00' },
      suspend_data: 'state-1',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ result: true, errorCode: 0 });
    expect(saved.headers['access-control-allow-origin']).toBe('*');
    expect(await state(lessonId)).toMatchObject({ status: 'in_progress', scos: [{ status: 'in_progress' }] });
    const click = await learner.post(`/api/lessons/${lessonId}/complete`);
    expect(click.statusCode).toBe(422);

    // Left and opened again: resumed where it stopped, the first session's time in the total.
    ctx.clock.advance(HOUR);
    const second = await launch(lessonId);
    const again = await startingCmi(launchParts(second.url).token);
    expect(again).toMatchObject({
      suspend_data: 'state-1',
      core: { lesson_location: 'page-2', entry: 'resume', total_time: '0000:10:00', lesson_status: 'incomplete' },
    });
    const done = await commit(launchParts(second.url).token, {
      core: { lesson_location: 'end', lesson_status: 'passed', score: { raw: '85', min: '0', max: '100' } },
    });
    expect(done.json().result).toBe(true);
    expect(await state(lessonId)).toMatchObject({ status: 'completed', score: 85 });
    expect(await item()).toMatchObject({ score: 85 });
    expect((await item()).completed_at).not.toBeNull();
    const summary = (await learner.get(`/api/admin/courses/${course}`)).json().result.course;
    expect(summary).toMatchObject({ progress: 50, completed_lessons_count: 1 });
    const detail = (await admin.get(`/api/analytics/courses/${course}/user/${learnerId}`)).json().result.course;
    const shown = detail.modules.flatMap((m: { items: unknown[] }) => m.items);
    expect(shown).toContainEqual({
      id: lessonId,
      name: 'Пакет',
      type: 'lesson',
      status: 'completed',
      kind: 'scorm',
      score: 85,
    });
  });

  it('a package in a top folder with spaces in its paths launches (the address encoded once)', async () => {
    const lessonId = await scormLesson({
      standard: '2004',
      topFolder: 'Курс продаж',
      scos: [{ id: 'intro', title: 'Введение', file: 'my sco/index page.html' }],
    });
    await enroll();
    const { url } = await launch(lessonId);
    expect(url).toContain(
      '/pkg/%D0%9A%D1%83%D1%80%D1%81%20%D0%BF%D1%80%D0%BE%D0%B4%D0%B0%D0%B6/my%20sco/index%20page.html',
    );
    const page = await ctx.app.inject({ method: 'GET', url: launchParts(url).path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/lms/runtime.js"></script>');
  });

  it('with a mastery score the raw score decides; a failed package shows as failed in analytics', async () => {
    const lessonId = await scormLesson({ standard: '1.2', scos: [{ id: 'quiz', title: 'Тест', mastery: 80 }] });
    await enroll();
    const { token } = launchParts((await launch(lessonId)).url);
    expect(await startingCmi(token)).toMatchObject({ student_data: { mastery_score: '80' } });
    await commit(token, { core: { lesson_status: 'completed', score: { raw: '70' } } });
    expect(await state(lessonId)).toMatchObject({ status: 'failed', score: 70, completed_at: null });
    const detail = (await admin.get(`/api/analytics/courses/${course}/user/${learnerId}`)).json().result.course;
    expect(detail.modules.flatMap((m: { items: unknown[] }) => m.items)).toContainEqual(
      expect.objectContaining({ id: lessonId, status: 'failed', score: 70 }),
    );
    await commit(token, { core: { lesson_status: 'completed', score: { raw: '90' } } });
    expect(await state(lessonId)).toMatchObject({ status: 'completed', score: 90 });
  });

  it('a multi-SCO 2004 package is done when every SCO is; the scaled passing score decides success', async () => {
    const lessonId = await scormLesson({
      standard: '2004',
      edition: '3rd',
      scos: [
        { id: 'one', title: 'Часть 1' },
        { id: 'two', title: 'Часть 2', scaledPassing: 0.8 },
      ],
    });
    await enroll();
    expect((await state(lessonId)).scos.map((s: { identifier: string }) => s.identifier)).toEqual(['one', 'two']);
    const one = launchParts((await launch(lessonId, 'one')).url).token;
    await commit(one, { completion_status: 'completed', success_status: 'unknown', session_time: 'PT5M' });
    expect(await state(lessonId)).toMatchObject({ status: 'in_progress' });
    const two = launchParts((await launch(lessonId, 'two')).url).token;
    expect(await startingCmi(two)).toMatchObject({ scaled_passing_score: '0.8', entry: 'ab-initio' });
    await commit(two, { completion_status: 'completed', success_status: 'passed', score: { scaled: '0.5' } });
    expect(await state(lessonId)).toMatchObject({
      status: 'failed',
      scos: [{ status: 'completed' }, { status: 'failed', score: 50 }],
    });
    await commit(two, { completion_status: 'completed', score: { scaled: '0.9' } });
    expect(await state(lessonId)).toMatchObject({ status: 'completed', score: 90 });
    expect(
      (await learner.post(`/api/courses/${course}/lessons/${lessonId}/scorm/launch`, { sco: 'three' })).statusCode,
    ).toBe(404);
  });

  it('a new version keeps learners results and says which version they played', async () => {
    const lessonId = await scormLesson({ standard: '1.2', scos: [{ id: 'intro', title: 'Введение' }] });
    await enroll();
    const { token } = launchParts((await launch(lessonId)).url);
    await commit(token, { core: { lesson_status: 'passed', score: { raw: '100' } } });
    const upload = zipUpload(await scormPackage({ standard: '2004', scos: [{ id: 'new', title: 'Новая версия' }] }));
    const res = await author.request(
      'POST',
      `/api/courses/${course}/lessons/${lessonId}/scorm`,
      upload.payload,
      upload.headers,
    );
    expect(res.json().result.message).toBe('Загружена новая версия SCORM-пакета');
    const versions = (await author.get(`/api/courses/${course}/lessons/${lessonId}/scorm`)).json().result.versions;
    expect(versions.map((v: { version: number; learners: number }) => [v.version, v.learners])).toEqual([
      [2, 0],
      [1, 1],
    ]);
    // Still done; the new version is what the next launch opens.
    expect(await state(lessonId)).toMatchObject({ status: 'completed', version: 2 });
    expect((await launch(lessonId)).sco).toBe('new');
    const run = await ctx.db.kysely.selectFrom('scorm_runs').select(['package_id', 'sco']).orderBy('id').execute();
    expect(run.map((r) => r.sco)).toEqual(['intro', 'new']);
    // The old version's commits are still accepted (a tab left open across the replacement).
    expect((await commit(token, { core: { lesson_status: 'passed' } })).json().result).toBe(true);
  });

  it('a launch address opens only its own run, expires, and refuses what it should', async () => {
    const lessonId = await scormLesson({ standard: '1.2', scos: [{ id: 'intro', title: 'Введение' }] });
    await enroll();
    const { token, path } = launchParts((await launch(lessonId)).url);
    const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await ctx.app.inject({ method: 'GET', url: path.replace(token, forged) })).statusCode).toBe(404);
    const otherRun = token.replace(/^\d+/, '999');
    expect((await commit(otherRun, { core: { lesson_status: 'passed' } })).statusCode).toBe(404);
    // Out of the package folder: refused, whatever the spelling.
    for (const escape of ['../../../app.db', '..%2f..%2fapp.db', '%2e%2e/%2e%2e/app.db']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/scorm-content/${token}/pkg/${escape}` });
      expect(res.statusCode, escape).toBe(404);
    }
    // Suspend data over SCORM 2004's limit: a failed commit, nothing stored.
    const big = await commit(token, { core: { lesson_status: 'incomplete' }, suspend_data: 'x'.repeat(64_001) });
    expect(big.json()).toEqual({ result: false, errorCode: 101 });
    expect(await state(lessonId)).toMatchObject({ status: 'in_progress' });
    expect((await commit(token, 'not the runtime' as unknown as Record<string, unknown>)).json().result).toBe(false);
    ctx.clock.advance(25 * HOUR);
    expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await commit(token, { core: { lesson_status: 'passed' } })).statusCode).toBe(404);
  });

  it('a new cycle starts a new run from the beginning', async () => {
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_recurrence: true, recurrence_value: 30 })
      .where('id', '=', course)
      .execute();
    const lessonId = await scormLesson({ standard: '1.2', scos: [{ id: 'intro', title: 'Введение' }] });
    await enroll();
    // The course's other lesson, so that the course completes with the package.
    const other = (await learner.get(`/api/courses/${course}/modules-structured`)).json().result.modules[0]
      .lessonsList[0].id;
    await learner.post(`/api/lessons/${other}/complete`);
    const { token } = launchParts((await launch(lessonId)).url);
    await commit(token, { core: { lesson_status: 'passed', lesson_location: 'end', exit: 'suspend' } });
    expect((await learner.get(`/api/admin/courses/${course}`)).json().result.course.complete).toBe(true);
    ctx.clock.advance(31 * DAY);
    await learner.signIn(learnerLogin.email, learnerLogin.password);
    expect(await state(lessonId)).toMatchObject({ status: 'not_started', completed_at: null });
    const next = launchParts((await launch(lessonId)).url).token;
    const fresh = await startingCmi(next);
    expect(fresh).toMatchObject({ core: { entry: 'ab-initio', lesson_status: 'not attempted' } });
    expect(fresh.core).not.toHaveProperty('lesson_location');
    expect(await ctx.db.kysely.selectFrom('scorm_runs').select('id').execute()).toHaveLength(2);
  });
});
