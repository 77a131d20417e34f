import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, start, stopAll, within, type Running } from './test/spawned.js';

/**
 * Stopping the real server under load (issue 30 item 18): every request either completes or is answered
 * 503 with `Connection: close`; none meets a reset. A connection refused once the port is closed is
 * fine: the request never reached this server, and a client may send it to the next one.
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

type Outcome = { answer: Answer } | { error: string };

function send(
  port: number,
  agent: Agent,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  sent?: () => void,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, agent, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ answer: { status: res.statusCode ?? 0, headers: res.headers, body } }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    // Written out, headers and body: the request is on its way.
    req.on('finish', () => sent?.());
    req.end(opts.body);
  });
}

const port = (url: string) => Number(new URL(url).port);

/** Whatever is neither an answer nor a refused connection: a reset, a hang-up, a broken answer. */
function broken(outcomes: Outcome[], answered = 200): string[] {
  const out: string[] = [];
  for (const o of outcomes) {
    if ('error' in o) {
      if (o.error !== 'ECONNREFUSED') out.push(o.error);
    } else if (o.answer.status === 503) {
      if (o.answer.headers.connection !== 'close') out.push('503 without Connection: close');
      if (!o.answer.body.includes('Сервер перезапускается')) out.push(`503 ${o.answer.body}`);
    } else if (o.answer.status !== answered) out.push(`${o.answer.status} ${o.answer.body}`);
  }
  return out;
}

/**
 * Keep-alive clients that each send one request after another until the server answers 503 or refuses
 * the connection; `warm` resolves once every client has had `warmAnswers` answers.
 */
function continuousClients(url: string, clients: number, warmAnswers: number) {
  let warmed = 0;
  let onWarm = () => {};
  const warm = new Promise<void>((resolve) => (onWarm = resolve));
  const agents: Agent[] = [];
  const runs = Array.from({ length: clients }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const outcomes: Outcome[] = [];
    for (;;) {
      const o = await send(port(url), agent, { path: '/api/config' });
      outcomes.push(o);
      if (outcomes.length === warmAnswers && ++warmed === clients) onWarm();
      if ('error' in o || o.answer.status !== 200) break;
    }
    // A client that stopped early must not keep the others from warming up.
    if (outcomes.length < warmAnswers && ++warmed === clients) onWarm();
    return outcomes;
  });
  return {
    warm,
    done: async () => {
      const all = (await Promise.all(runs)).flat();
      for (const a of agents) a.destroy();
      return all;
    },
  };
}

async function stopUnderLoad(r: Running, signalTarget: () => Promise<void>) {
  const url = await within(r, 'start banner', r.url, 60_000);
  const clients = continuousClients(url, 8, 20);
  await within(r, 'clients warmed up', clients.warm, 60_000);
  await signalTarget();
  const outcomes = await within(r, 'clients stopped', clients.done(), 60_000);
  expect(broken(outcomes)).toEqual([]);
  expect(await within(r, 'server stopped', r.closed, 60_000)).toEqual({ code: 0, signal: null });
  // The clients were answered until the end: each met the 503 or the closed port.
  expect(outcomes.length).toBeGreaterThan(8 * 20);
}

describe('stopping under load', () => {
  beforeAll(buildServer, 240_000);
  afterEach(stopAll);

  it('SIGTERM to the server: keep-alive clients sending all the time meet no reset', async () => {
    const r = start(process.execPath, ['apps/api/dist/server.js'], { SHUTDOWN_TIMEOUT_MS: '60000' });
    await stopUnderLoad(r, async () => void r.proc.kill('SIGTERM'));
  }, 240_000);

  it('SIGTERM to npm start: keep-alive clients sending all the time meet no reset', async () => {
    const r = start('npm', ['start', '--silent', '--', '--no-build'], { SHUTDOWN_TIMEOUT_MS: '60000' });
    await stopUnderLoad(r, async () => void r.proc.kill('SIGTERM'));
  }, 240_000);

  it('SIGTERM just after 16 sign-ins were sent: each is answered, none is reset', async () => {
    const r = start(process.execPath, ['apps/api/dist/server.js'], { SHUTDOWN_TIMEOUT_MS: '60000' });
    const url = await within(r, 'start banner', r.url, 60_000);
    // The CSRF token of a visitor without a session, as the sign-in page gets it.
    const first = await send(port(url), new Agent(), { path: '/api/check-auth' });
    const cookie = 'answer' in first ? String(first.answer.headers['set-cookie']?.[0] ?? '').split(';')[0] : '';
    const token = decodeURIComponent(cookie.split('=')[1] ?? '');
    // Sixteen people (no login's own limit is reached) whose passwords are checked: each answer is 422.
    const signIn = (i: number) => {
      const body = JSON.stringify({ login: `person${i}@example.com`, password: 'Wrong-password-1', remember: false });
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': token,
        cookie,
      };
      return { method: 'POST', path: '/login', headers, body };
    };
    let written = 0;
    let allWritten = () => {};
    const sentAll = new Promise<void>((resolve) => (allWritten = resolve));
    const signIns = Array.from({ length: 16 }, (_, i) =>
      send(port(url), new Agent(), signIn(i), () => {
        if (++written === 16) allWritten();
      }),
    );
    await within(r, 'sign-ins sent', sentAll, 30_000);
    r.proc.kill('SIGTERM');
    const outcomes = await within(r, 'sign-ins answered', Promise.all(signIns), 60_000);
    expect(broken(outcomes, 422)).toEqual([]);
    expect(await within(r, 'server stopped', r.closed, 60_000)).toEqual({ code: 0, signal: null });
  }, 240_000);
});
