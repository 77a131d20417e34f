import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, dialectName, type TestContext } from '../../test/harness.js';

describe(`shell calls (${dialectName})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('GET /ziggy lists the named routes the server registered', async () => {
    const res = await new Client(ctx.app).get('/ziggy');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ url: 'http://localhost:80', defaults: {} });
    expect(body.routes.login).toEqual({ uri: 'login', methods: ['POST'] });
    expect(body.routes.logout).toEqual({ uri: 'api/logout', methods: ['POST'] });
    expect(body.routes.menu).toEqual({ uri: 'api/menu', methods: ['GET', 'HEAD'] });
    expect(body.routes['check-auth'].uri).toBe('api/check-auth');
  });

  it('GET /api/config gives the company name, login domain and time zone', async () => {
    const res = await new Client(ctx.app).get('/api/config');
    expect(res.json()).toEqual({
      company_name: 'Тестовая компания',
      login_domain: 'example.com',
      time_zone: 'Europe/Moscow',
      oidc_label: null,
    });
  });

  it('social links: the shipped default, replaceable in DATA_DIR', async () => {
    const client = new Client(ctx.app);
    const shipped = (await client.get('/storage/json/social.links.json')).json();
    expect(shipped.length).toBeGreaterThan(0);
    expect(shipped[0]).toEqual(expect.objectContaining({ id: 1, name: 'Telegram', icon: 'telegram' }));
    const dir = join(ctx.config.dataDir, 'storage', 'json');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'social.links.json'),
      JSON.stringify([{ id: 7, name: 'Сайт', link: 'https://example.com', icon: 'web' }]),
    );
    expect((await client.get('/storage/json/social.links.json')).json()).toEqual([
      { id: 7, name: 'Сайт', link: 'https://example.com', icon: 'web' },
    ]);
  });

  it('unknown API paths are a JSON 404', async () => {
    const res = await new Client(ctx.app).get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ result: { success: false, message: 'Не найдено' } });
  });

  it('OpenAPI is generated from the schemas', async () => {
    const res = await new Client(ctx.app).get('/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'remember',
    );
  });
});

describe('OpenAPI in production', () => {
  it('is for admins only', async () => {
    const ctx = await createTestApp({ NODE_ENV: 'production' });
    try {
      expect((await new Client(ctx.app).get('/docs/json')).statusCode).toBe(401);
    } finally {
      await ctx.close();
    }
  });
});

describe('the built web client', () => {
  it('is served at / and as the fallback of client routes; API paths stay JSON', async () => {
    const web = mkdtempSync(join(tmpdir(), 'lms-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
    const ctx = await createTestApp({ WEB_DIST: web });
    try {
      const client = new Client(ctx.app);
      for (const path of ['/', '/login', '/courses/5/lesson/7', '/settings/groups']) {
        const res = await client.get(path);
        expect([path, res.statusCode, res.body]).toEqual([path, 200, '<!doctype html><div id="root"></div>']);
      }
      expect((await client.get('/assets/app.js')).body).toBe('console.log(1)');
      expect((await client.get('/api/unknown')).json().result.message).toBe('Не найдено');
      expect((await client.get('/assets/')).json().result.success).toBe(false);
    } finally {
      await ctx.close();
    }
  });
});
