import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientAs, createTestApp, dialectName, type TestContext } from '../test/harness.js';
import { DEMO_PASSWORD, loadDemo } from './seed.js';

/** The demo company opens everywhere: every course in the constructor, every lesson and test for a learner. */
describe(`demo data in the constructor and the learner pages (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let learner: Client;
  beforeAll(async () => {
    ctx = await createTestApp({ LOGIN_DOMAIN: 'company.ru' });
    await loadDemo(ctx.db.kysely, ctx.config, ctx.clock);
    author = new Client(ctx.app);
    await author.signIn('author@company.ru', DEMO_PASSWORD);
    learner = new Client(ctx.app);
    await learner.signIn('learner@company.ru', DEMO_PASSWORD);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('opens every course, module, lesson, test and question list in the constructor', async () => {
    const courses = await ctx.db.kysely.selectFrom('courses').select('id').execute();
    expect(courses.length).toBeGreaterThan(0);
    for (const { id } of courses) {
      expect((await author.get(`/api/courses/${id}`)).statusCode).toBe(200);
      const modules = (await author.get(`/api/courses/${id}/modules`)).json().result.items as {
        lessons: { id: number }[];
        tests: { id: number }[];
      }[];
      for (const m of modules) {
        for (const l of m.lessons) {
          const res = await author.get(`/api/courses/${id}/lessons/${l.id}`);
          expect([l.id, res.statusCode]).toEqual([l.id, 200]);
          // What the editor loads, it can save back unchanged.
          const blocks = res.json().result.lesson.contents as Record<string, unknown>[];
          const saved = await author.put(`/api/courses/${id}/lessons/${l.id}/contents`, { contents: blocks });
          expect([l.id, saved.statusCode, saved.json().result.message]).toEqual([
            l.id,
            200,
            'Изменения успешно сохранены',
          ]);
        }
        for (const t of m.tests) {
          expect((await author.get(`/api/courses/${id}/tests/${t.id}`)).statusCode).toBe(200);
          expect((await author.get(`/api/admin/tests/${t.id}/questions`)).statusCode).toBe(200);
        }
      }
    }
  });

  it("opens every course of the learner's home page, its lessons and tests", async () => {
    const categories = (await learner.get('/api/user/courses')).json().result.categories as {
      items: { id: number }[];
    }[];
    const ids = categories.flatMap((c) => c.items.map((i) => i.id));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const modules = (await learner.get(`/api/courses/${id}/modules-structured`)).json().result.modules as {
        lessonsList: { id: number; type: string }[];
      }[];
      for (const item of modules.flatMap((m) => m.lessonsList)) {
        const url =
          item.type === 'lesson'
            ? `/api/courses/${id}/lessons/${item.id}/contents`
            : `/api/courses/${id}/tests/${item.id}`;
        const res = await learner.get(url);
        expect([url, res.statusCode]).toEqual([url, 200]);
        expect(res.body).not.toContain('is_correct');
      }
    }
  });

  it("keeps each demo attempt as real ones are kept (with its snapshot): its review and the test's figures open", async () => {
    const { client: admin } = await clientAs(ctx, 'admin');
    const attempts = await ctx.db.kysely
      .selectFrom('test_attempts as a')
      .innerJoin('tests as t', 't.id', 'a.test_id')
      .innerJoin('modules as m', 'm.id', 't.module_id')
      .select(['a.id', 'a.test_id', 'm.course_id', 'a.snapshot', 'a.score', 'a.correct_answers'])
      .execute();
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) {
      expect([a.id, a.snapshot]).not.toEqual([a.id, null]);
      const res = await admin.get(`/api/courses/${a.course_id}/tests/${a.test_id}/${a.id}/result`);
      expect([a.id, res.statusCode]).toEqual([a.id, 200]);
      const review = res.json().result.test;
      // The stored grade is the one the answers give.
      const right = (review.questions as { options: { is_correct?: boolean; is_selected: boolean }[] }[]).filter((q) =>
        q.options.every((o) => (o.is_correct ?? false) === o.is_selected),
      ).length;
      if (review.show_correct_answers) expect([a.id, right]).toEqual([a.id, a.correct_answers]);
      expect(review.attempt.score).toBe(a.score);
    }
    for (const testId of new Set(attempts.map((a) => a.test_id))) {
      const res = await author.get(`/api/admin/tests/${testId}/statistics`);
      expect([testId, res.statusCode]).toEqual([testId, 200]);
    }
  });
});
