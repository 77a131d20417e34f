import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createShutdown, DEFAULT_DRAIN_MS, listenUrl, parseDrainMs } from './platform/shutdown.js';
import { createTestApp, type TestContext } from './test/harness.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the request went out on a kept-alive socket of an earlier request. */
  reused: boolean;
}

function get(agent: Agent, port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A test app with a route that waits until the test lets it answer. */
async function appWithSlowRoute() {
  let entered: () => void = () => {};
  const inHandler = new Promise<void>((r) => (entered = r));
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const ctx = await createTestApp(
    {},
    {
      beforeReady: (app) =>
        app.get('/__slow', { config: { access: 'public' } }, async () => {
          entered();
          await gate;
          return { done: true };
        }),
    },
  );
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { ctx, port: address.port, inHandler, release };
}

/** Yields to the event loop until close() has stopped the server accepting connections. */
async function untilNotListening(ctx: TestContext): Promise<void> {
  while (ctx.app.server.listening) await new Promise((r) => setImmediate(r));
}

describe('graceful shutdown', () => {
  let ctx: TestContext | undefined;
  let release: (() => void) | undefined;
  afterEach(async () => {
    // Already closed by the tests; a failed one must not leave a server or a held request behind.
    release?.();
    await ctx?.close();
    ctx = undefined;
  });

  it('lets an in-flight request finish before the server closes', async () => {
    const slow = await appWithSlowRoute();
    ({ ctx, release } = slow);
    const inFlight = get(new Agent(), slow.port, '/__slow');
    await slow.inHandler;
    let closed = false;
    const closing = slow.ctx.app.close().then(() => (closed = true));
    await untilNotListening(slow.ctx);
    expect(closed).toBe(false);
    slow.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    // The socket is not kept for another request: the process is going away.
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual({ done: true });
    await closing;
    expect(closed).toBe(true);
  });

  it('answers a request on an idle keep-alive socket with 503 and Connection: close, not a reset', async () => {
    const slow = await appWithSlowRoute();
    ({ ctx, release } = slow);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(keepAlive, slow.port, '/api/config');
    expect(first.status).toBe(200);
    // Something still running keeps the server draining while the kept-alive socket sits idle.
    const inFlight = get(new Agent(), slow.port, '/__slow');
    await slow.inHandler;
    const closing = slow.ctx.app.close();
    // New connections are no longer accepted, so that the port is free for the next process.
    await untilNotListening(slow.ctx);

    const onIdleSocket = await get(keepAlive, slow.port, '/api/config');
    expect(onIdleSocket.reused).toBe(true);
    expect(onIdleSocket.status).toBe(503);
    expect(onIdleSocket.headers.connection).toBe('close');
    expect(JSON.parse(onIdleSocket.body)).toEqual({
      result: { success: false, message: 'Сервер перезапускается. Повторите запрос через несколько секунд.' },
    });

    slow.release();
    expect((await inFlight).status).toBe(200);
    await closing;
    keepAlive.destroy();
  });
});

describe('createShutdown', () => {
  const quiet = () => {
    const lines: string[] = [];
    return {
      lines,
      log: { info: (_o: object, m: string) => lines.push(m), error: (_o: object, m: string) => lines.push(m) },
    };
  };

  it('exits 0 once closing has finished', async () => {
    const { log } = quiet();
    const exits: number[] = [];
    const shutdown = createShutdown({
      close: () => Promise.resolve(),
      log,
      drainMs: 10_000,
      exit: (c) => exits.push(c),
      schedule: () => {},
    });
    await shutdown('SIGTERM');
    expect(exits).toEqual([0]);
  });

  it('exits 1 by force when the drain time is over, and a second signal does not cut the drain short', async () => {
    const { log, lines } = quiet();
    const exits: number[] = [];
    const timers: { run: () => void; ms: number }[] = [];
    let finishClose: () => void = () => {};
    const close = () => new Promise<void>((r) => (finishClose = r));
    const shutdown = createShutdown({
      close,
      log,
      drainMs: 2500,
      exit: (c) => exits.push(c),
      schedule: (run, ms) => timers.push({ run, ms }),
    });
    void shutdown('SIGINT');
    void shutdown('SIGINT');
    expect(exits).toEqual([]);
    expect(timers.map((t) => t.ms)).toEqual([2500]);
    timers[0]?.run();
    expect(exits).toEqual([1]);
    expect(lines).toContain('requests still running after the drain time; exiting anyway');
    finishClose();
  });

  it('exits 1 when closing fails', async () => {
    const { log, lines } = quiet();
    const exits: number[] = [];
    const shutdown = createShutdown({
      close: () => Promise.reject(new Error('db gone')),
      log,
      drainMs: 1,
      exit: (c) => exits.push(c),
      schedule: () => {},
    });
    await shutdown('SIGTERM');
    expect(exits).toEqual([1]);
    expect(lines).toContain('shutdown failed');
  });

  it('reads SHUTDOWN_TIMEOUT_MS as whole milliseconds, 10 s by default', () => {
    expect(parseDrainMs(undefined)).toBe(DEFAULT_DRAIN_MS);
    expect(parseDrainMs('')).toBe(10_000);
    expect(parseDrainMs('2500')).toBe(2500);
    for (const bad of ['-1', '1.5', '10s', '1e3']) expect(() => parseDrainMs(bad)).toThrow('SHUTDOWN_TIMEOUT_MS');
  });
});

describe('listenUrl', () => {
  it('prints the address the server really has, with localhost for a wildcard host', () => {
    expect(listenUrl({ address: '0.0.0.0', family: 'IPv4', port: 41234 })).toBe('http://localhost:41234');
    expect(listenUrl({ address: '::', family: 'IPv6', port: 3000 })).toBe('http://localhost:3000');
    expect(listenUrl({ address: '127.0.0.1', family: 'IPv4', port: 5000 })).toBe('http://127.0.0.1:5000');
    expect(listenUrl({ address: '::1', family: 'IPv6', port: 5000 })).toBe('http://[::1]:5000');
    expect(listenUrl('/run/lms.sock')).toBe('/run/lms.sock');
  });
});
