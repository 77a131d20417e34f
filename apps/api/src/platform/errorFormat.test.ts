import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createModuleWith,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../test/harness.js';

/**
 * Every error the API answers is in its format, `{ result: { success: false, message } }` with a
 * Russian message and a 4xx status for what the client sent wrong (issue 30 item 19): also the errors
 * that Fastify, its multipart plugin and Node's HTTP parser answer themselves.
 */
const CYRILLIC = /[а-яё]/i;

function expectApiError(what: string, status: number, body: string, expected: { status: number; message: string }) {
  expect([what, status], body).toEqual([what, expected.status]);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const { errors: _errors, ...rest } = parsed;
  expect([what, rest]).toEqual([what, { result: { success: false, message: expected.message } }]);
  expect(expected.message).toMatch(CYRILLIC);
}

describe(`errors in the API's format (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const BAD_FORMAT = { status: 400, message: 'Некорректный формат запроса' };
  const NO_FILE = { status: 422, message: 'Файл не выбран' };

  it("answers the framework's own errors in Russian with their 4xx status", async () => {
    const cases: [
      string,
      string,
      string,
      string | undefined,
      Record<string, string>,
      { status: number; message: string },
    ][] = [
      [
        'bad URL encoding',
        'GET',
        '/api/courses/%E0%A4%A',
        undefined,
        {},
        { status: 400, message: 'Некорректный адрес запроса' },
      ],
      [
        'bad URL encoding, another route',
        'GET',
        '/api/courses/1/modules/%ZZ',
        undefined,
        {},
        { status: 400, message: 'Некорректный адрес запроса' },
      ],
      [
        'bad URL encoding, a page',
        'GET',
        '/%E0%A4%A',
        undefined,
        {},
        { status: 400, message: 'Некорректный адрес запроса' },
      ],
      [
        'an over-long parameter',
        'GET',
        `/api/courses/${'1'.repeat(200)}`,
        undefined,
        {},
        { status: 414, message: 'Слишком длинный адрес запроса' },
      ],
      ['invalid JSON', 'POST', '/api/courses/modules', '{bad', { 'content-type': 'application/json' }, BAD_FORMAT],
      ['empty JSON', 'POST', '/api/courses/modules', '', { 'content-type': 'application/json' }, BAD_FORMAT],
      [
        'no content type',
        'POST',
        '/api/courses/modules',
        '{}',
        { 'content-type': '' },
        { status: 415, message: 'Неподдерживаемый тип содержимого' },
      ],
      [
        'an unknown content type',
        'POST',
        '/api/courses/modules',
        '{}',
        { 'content-type': 'application/x-unknown' },
        { status: 415, message: 'Неподдерживаемый тип содержимого' },
      ],
      [
        'a body too large',
        'POST',
        '/api/courses/modules',
        'x'.repeat(2 * 1024 * 1024),
        { 'content-type': 'application/json' },
        { status: 413, message: 'Слишком большой запрос' },
      ],
      [
        'a multipart request without a boundary',
        'POST',
        '/api/upload-image',
        'x',
        { 'content-type': 'multipart/form-data' },
        BAD_FORMAT,
      ],
      [
        'a multipart request with an empty boundary',
        'POST',
        '/api/upload-file',
        'x',
        { 'content-type': 'multipart/form-data; boundary=' },
        NO_FILE,
      ],
    ];
    for (const [what, method, url, payload, headers, expected] of cases) {
      const res = await admin.request(method as 'GET', url, payload, headers);
      expectApiError(what, res.statusCode, res.body, expected);
      // Answered before any route or hook runs, yet with the headers of every answer.
      expect([what, res.headers['x-content-type-options'], res.headers['cache-control']]).toEqual([
        what,
        'nosniff',
        'no-store',
      ]);
    }
  });

  it('answers a broken multipart upload 4xx, whatever part of it is broken, and never leaves it waiting', async () => {
    const courseId = await createCourse(ctx.db);
    const { lessonIds, testIds } = await createModuleWith(ctx.db, courseId, { lessons: 1, tests: 1 });
    const boundary = 'b0undary';
    const field = `--${boundary}\r\nContent-Disposition: form-data; name="lesson_id"\r\n\r\n${lessonIds[0]}\r\n`;
    const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    for (const [what, body, expected] of [
      // It used to wait for ever: the parser errs on the file part before the route reads it.
      ['the end of the form missing', `${field}${fileHead}${'x'.repeat(1000)}`, BAD_FORMAT],
      // The parser skips the part.
      [
        'a malformed part header',
        `${field}--${boundary}\r\nContent-Disposition form-data\r\n\r\nxx\r\n--${boundary}--\r\n`,
        NO_FILE,
      ],
    ] as const) {
      const res = await admin.post('/api/upload-file', body, headers);
      expectApiError(what, res.statusCode, res.body, expected);
    }
    // Every route that reads a multipart body: the questions of a test with their answer images.
    const questions = `/api/admin/tests/${testIds[0]}/questions`;
    const noBoundary = await admin.post(questions, 'x', { 'content-type': 'multipart/form-data' });
    expectApiError('questions without a boundary', noBoundary.statusCode, noBoundary.body, BAD_FORMAT);
    const image = `--${boundary}\r\nContent-Disposition: form-data; name="answer_image.q1.a1"; filename="a.png"\r\n\r\n`;
    const cut = await admin.post(questions, `${image}${'x'.repeat(1000)}`, headers);
    expectApiError('questions cut short', cut.statusCode, cut.body, BAD_FORMAT);
  });

  it("answers what Node's HTTP parser refuses in the API's format too", async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port });
        let out = '';
        socket.on('data', (chunk) => (out += chunk.toString('utf8')));
        socket.on('close', () => resolve(out));
        socket.on('error', reject);
        socket.write(request);
      });
    for (const [what, request, expected] of [
      [
        'a broken request line',
        'GET /api/config HTTP/1.1 extra\r\nHost: x\r\n\r\n',
        { status: 400, message: 'Некорректный запрос' },
      ],
      [
        'headers too large',
        `GET /api/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        { status: 431, message: 'Слишком большие заголовки запроса' },
      ],
      [
        'a URL too long',
        `GET /api/courses?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        { status: 431, message: 'Слишком большие заголовки запроса' },
      ],
      [
        'an invalid content length',
        'POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
        { status: 400, message: 'Некорректный запрос' },
      ],
    ] as const) {
      const answer = await raw(request);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
      expect(head.toLowerCase(), what).toContain('content-type: application/json; charset=utf-8');
      expect(Number(/content-length: (\d+)/i.exec(head)?.[1]), what).toBe(Buffer.byteLength(body));
      expectApiError(what, status, body, expected);
    }
  });
});
