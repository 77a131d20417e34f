import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { scormPackage } from '../../test/scormPackages.js';

/** SCORM content on CONTENT_URL (docs/decisions.md §SCORM content). */

describe(`SCORM content on its own origin (CONTENT_URL, ${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp({ CONTENT_URL: 'http://content.example.test', PUBLIC_URL: 'http://learn.example.test' });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('launches there with same-origin frames; that host serves content only, the platform host none', async () => {
    const author = (await clientAs(ctx, 'author')).client;
    const course = await createCourse(ctx.db, 'Курс', { is_published: true });
    const { moduleId } = await createModuleWith(ctx.db, course, { lessons: 0, name: 'Модуль' });
    const created = await author.post(
      '/api/courses/lessons',
      { module_id: moduleId, kind: 'scorm' },
      { host: 'learn.example.test' },
    );
    const lessonId = created.json().result.item.id as number;
    const upload = multipart(
      {},
      {
        field: 'file',
        name: 'p.zip',
        type: 'application/zip',
        data: await scormPackage({ standard: '1.2', scos: [{ id: 'a', title: 'A' }] }),
      },
    );
    await author.request('POST', `/api/courses/${course}/lessons/${lessonId}/scorm`, upload.payload, {
      ...upload.headers,
      host: 'learn.example.test',
    });
    await author.put(
      `/api/courses/${course}/lessons/${lessonId}`,
      { name: 'Пакет', is_published: true },
      { host: 'learn.example.test' },
    );
    const res = await author.post(
      `/api/courses/${course}/lessons/${lessonId}/scorm/launch`,
      {},
      { host: 'learn.example.test' },
    );
    const launched = res.json().result;
    expect(launched.url.startsWith('http://content.example.test/scorm-content/')).toBe(true);
    expect(launched.origin).toBe('http://content.example.test');
    expect(launched.sandbox).toContain('allow-same-origin');
    const path = new URL(launched.url).pathname;
    const onContent = await ctx.app.inject({ method: 'GET', url: path, headers: { host: 'content.example.test' } });
    expect(onContent.statusCode).toBe(200);
    expect(onContent.headers['content-security-policy']).toBe(`sandbox ${launched.sandbox}`);
    const onPlatform = await ctx.app.inject({ method: 'GET', url: path, headers: { host: 'learn.example.test' } });
    expect(onPlatform.statusCode).toBe(404);
    // Nor with the path spelt otherwise: the router decodes it, the check must not see a difference.
    const spelt = [
      path.replace('/scorm-content/', '/%73corm-content/'),
      path.replace('/scorm-content/', '/SCORM-content/'),
      path.replace('/scorm-content/', '/scorm%2Dcontent/'),
      path.replace('/pkg/', '/%70kg/'),
    ];
    for (const url of spelt) {
      const other = await ctx.app.inject({ method: 'GET', url, headers: { host: 'learn.example.test' } });
      expect([url, other.statusCode]).toEqual([url, 404]);
      expect(other.headers['content-security-policy'] ?? '').not.toContain('allow-same-origin');
    }
    // On the content host a spelling other than the one the launch gave serves nothing either.
    const shifted = await ctx.app.inject({
      method: 'GET',
      url: path.replace('/pkg/', '/%70kg/'),
      headers: { host: 'content.example.test' },
    });
    expect(shifted.statusCode).toBe(404);
    // The learner's cookie reaches the content host too (a port does not separate cookies): no API there.
    const cookie = [...author.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const api = await ctx.app.inject({
      method: 'GET',
      url: '/api/check-auth',
      headers: { host: 'content.example.test', cookie },
    });
    expect(api.statusCode).toBe(404);
    // The web client may frame the content origin.
    const page = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: { host: 'learn.example.test' } });
    expect(page.headers['content-security-policy']).toContain("frame-src 'self'");
    expect(page.headers['content-security-policy']).toContain('http://content.example.test');
  });
});
