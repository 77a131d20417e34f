import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.js';
import { CACHE_IMMUTABLE, isClientPage } from './webClient.js';

const INDEX = '<!doctype html><html lang="ru"><div id="root"></div><script src="/assets/index-a1b2c3.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('Корпоративное обучение '.repeat(50))});`;

let web: string;
let ctx: TestContext;

/** A build as Vite and the precompress plugin leave it: each text file with .br and .gz beside it. */
beforeAll(async () => {
  web = mkdtempSync(join(tmpdir(), 'lms-web-client-'));
  mkdirSync(join(web, 'assets'));
  const files: Record<string, string> = {
    'index.html': INDEX,
    'assets/index-a1b2c3.js': SCRIPT,
    'assets/index-d4e5f6.css': 'body{margin:0}',
  };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(web, name), content);
    writeFileSync(join(web, `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(web, `${name}.gz`), gzipSync(content));
  }
  writeFileSync(join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(web, 'assets', 'only-plain-0f0f0f.js'), 'export {};');
  // A source map left in the build (an older build, or one made by hand): never published.
  writeFileSync(join(web, 'assets', 'index-a1b2c3.js.map'), '{"version":3,"sources":["secret.ts"]}');
  writeFileSync(join(web, 'index.html.map'), '{"version":3}');
  ctx = await createTestApp({ WEB_DIST: web });
});

afterAll(async () => {
  await ctx.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('delivery of the web client', () => {
  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const res = await get('/assets/index-a1b2c3.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.equals(brotliCompressSync(SCRIPT))).toBe(true);
  });

  it('sends gzip when brotli is not accepted, and the plain file when nothing is', async () => {
    const gz = await get('/assets/index-a1b2c3.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(gzipSync(SCRIPT))).toBe(true);
    expect(gz.headers['cache-control']).toBe(CACHE_IMMUTABLE);

    const plain = await get('/assets/index-a1b2c3.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(CACHE_IMMUTABLE);
  });

  it('sends the plain file of an asset that has no compressed copy', async () => {
    const res = await get('/assets/only-plain-0f0f0f.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};');
    expect(res.headers['cache-control']).toBe(CACHE_IMMUTABLE);
  });

  it('serves index.html at / and as the fallback of client pages, compressed and never cached unchecked', async () => {
    for (const path of ['/', '/login', '/courses/5/lesson/7?tab=1']) {
      const res = await get(path, 'br, gzip');
      expect([path, res.statusCode, res.headers['cache-control']]).toEqual([path, 200, 'no-cache']);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.rawPayload.equals(brotliCompressSync(INDEX))).toBe(true);
    }
    const plain = await get('/settings');
    expect(plain.body).toBe(INDEX);
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('revalidates the unhashed files of public/', async () => {
    const res = await get('/favicon.svg', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a missing asset (a stale chunk after a deploy), not the entry page', async () => {
    const res = await get('/assets/index-000000.js', 'br, gzip');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ result: { success: false, message: 'Не найдено' } });
  });
});

describe('source maps', () => {
  it('are never served, even when the build left them in the served folder', async () => {
    for (const path of ['/assets/index-a1b2c3.js.map', '/index.html.map', '/assets/INDEX-A1B2C3.JS.MAP']) {
      const res = await get(path, 'br, gzip');
      expect([path, res.statusCode]).toEqual([path, 404]);
      expect(res.body).not.toContain('secret.ts');
    }
  });
});

describe('isClientPage', () => {
  it('is true for page addresses and false for API prefixes and build files', () => {
    for (const url of ['/', '/login', '/courses/1', '/apiary', '/settings?x=/api/'])
      expect([url, isClientPage(url)]).toEqual([url, true]);
    for (const url of ['/api/x', '/api', '/storage/a.png', '/docs', '/ziggy', '/assets/x.js', '/index.js.map']) {
      expect([url, isClientPage(url)]).toEqual([url, false]);
    }
  });
});
