import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../bootstrap.js';
import { createTestApp, dialectName, type TestContext } from '../test/harness.js';
import { SECOND } from './clock.js';
import type { FileStore } from './fileStore/fileStore.js';
import { STORAGE_PROBE_KEPT_MS } from './health.js';

const READY = {
  status: 'ready',
  checks: { accepting: 'ok', database: 'ok', migrations: 'ok', storage: 'ok' },
};

/** A probe that waits until the test lets it end, counting its calls. */
function gatedProbe() {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const probe = { calls: 0, open: () => open(), run: () => (probe.calls++, gate) };
  return probe;
}

function get(agent: Agent, port: number, path: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The store with another probe (a bucket that fails or hangs). */
function withProbe(store: FileStore, probe: () => Promise<void>): FileStore {
  return {
    kind: store.kind,
    location: store.location,
    write: (key, body, options) => store.write(key, body, options),
    open: (key) => store.open(key),
    remove: (key) => store.remove(key),
    list: (prefix) => store.list(prefix),
    probe,
  };
}

describe(`health and readiness (${dialectName})`, () => {
  let ctx: TestContext | undefined;
  let served: TestContext | undefined;
  let release: (() => void) | undefined;
  afterEach(async () => {
    release?.();
    await ctx?.close();
    await served?.close();
    ctx = served = release = undefined;
  });

  const readyz = async (o: TestContext) => {
    const res = await o.app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  it('answers /healthz without touching anything and /readyz once every check passes, for anyone', async () => {
    ctx = await createTestApp();
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect([health.statusCode, health.json()]).toEqual([200, { status: 'ok' }]);
    expect(await readyz(ctx)).toEqual({ status: 200, body: READY });
    // A database gone does not make the process dead: liveness stays.
    await ctx.db.close();
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers 503 naming the database when it is closed, and skips the migrations', async () => {
    ctx = await createTestApp();
    await ctx.db.close();
    expect(await readyz(ctx)).toEqual({
      status: 503,
      body: {
        status: 'not_ready',
        checks: { accepting: 'ok', database: 'failed', migrations: 'skipped', storage: 'ok' },
      },
    });
  });

  it('answers 503 while the database lacks a migration of this code, 200 once it is migrated', async () => {
    ctx = await createTestApp({}, { migratedTo: '0027_scorm' });
    expect(await readyz(ctx)).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { ...READY.checks, migrations: 'pending' } },
    });
    await prepareDatabase(ctx.db);
    expect(await readyz(ctx)).toEqual({ status: 200, body: READY });
  });

  it("answers 503 when the store's probe fails, without the error's text, and probes again at the next check", async () => {
    let failing = true;
    ctx = await createTestApp(
      {},
      {
        fileStore: (store) =>
          withProbe(store, async () => {
            if (failing) throw new Error('bucket lms-files at storage.example.net: access denied');
            await store.probe();
          }),
      },
    );
    const refused = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ status: 'not_ready', checks: { ...READY.checks, storage: 'failed' } });
    expect(refused.body).not.toContain('lms-files');
    failing = false;
    expect(await readyz(ctx)).toEqual({ status: 200, body: READY });
  });

  it('answers 503, not 500, when the store throws before it even starts', async () => {
    ctx = await createTestApp(
      {},
      {
        fileStore: (store) =>
          withProbe(store, () => {
            throw new Error('no credentials');
          }),
      },
    );
    expect(await readyz(ctx)).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { ...READY.checks, storage: 'failed' } },
    });
  });

  it('answers 503 within READYZ_TIMEOUT_MS when the store hangs', async () => {
    const hung = gatedProbe();
    ({ open: release } = hung);
    ctx = await createTestApp({ READYZ_TIMEOUT_MS: '20' }, { fileStore: (store) => withProbe(store, hung.run) });
    expect(await readyz(ctx)).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { ...READY.checks, storage: 'timeout' } },
    });
  });

  it('lets balancers asking at once share one probe, and keeps a good probe for a while', async () => {
    const probe = gatedProbe();
    ctx = await createTestApp({}, { fileStore: (store) => withProbe(store, probe.run) });
    const both = Promise.all([readyz(ctx), readyz(ctx)]);
    // Both requests are in: the one probe under way waits for the gate.
    while (probe.calls === 0) await new Promise((resolve) => setImmediate(resolve));
    probe.open();
    expect(await both).toEqual([
      { status: 200, body: READY },
      { status: 200, body: READY },
    ]);
    expect(probe.calls).toBe(1);
    ctx.clock.advance(STORAGE_PROBE_KEPT_MS - SECOND);
    await readyz(ctx);
    expect(probe.calls).toBe(1);
    ctx.clock.advance(SECOND);
    await readyz(ctx);
    expect(probe.calls).toBe(2);
  });

  it('says 503 from the moment stopping begins; on a kept-alive connection it answers, with Connection: close', async () => {
    let entered: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    served = await createTestApp(
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
    const { app } = served;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    // A balancer's kept-alive connections, one per check, and a request that keeps the server draining.
    const [ready, live] = [
      new Agent({ keepAlive: true, maxSockets: 1 }),
      new Agent({ keepAlive: true, maxSockets: 1 }),
    ];
    expect((await get(ready, address.port, '/readyz')).status).toBe(200);
    expect((await get(live, address.port, '/healthz')).status).toBe(200);
    const slow = get(new Agent(), address.port, '/__slow');
    await inHandler;

    const stopping = app.stopAccepting();
    // Before the port has even closed.
    const first = await app.inject({ method: 'GET', url: '/readyz' });
    expect(first.statusCode).toBe(503);
    expect(first.json()).toMatchObject({ status: 'not_ready', checks: { accepting: 'stopping' } });
    await stopping;
    expect(app.server.listening).toBe(false);

    const onKeptAlive = await get(ready, address.port, '/readyz');
    expect([onKeptAlive.status, onKeptAlive.headers.connection]).toEqual([503, 'close']);
    expect(JSON.parse(onKeptAlive.body)).toEqual({
      status: 'not_ready',
      checks: { accepting: 'stopping', database: 'skipped', migrations: 'skipped', storage: 'skipped' },
    });
    // The process is alive while it drains.
    const alive = await get(live, address.port, '/healthz');
    expect([alive.status, alive.headers.connection, alive.body]).toEqual([200, 'close', '{"status":"ok"}']);

    release?.();
    expect((await slow).status).toBe(200);
    ready.destroy();
    live.destroy();
  });

  it('documents /healthz and /readyz in the OpenAPI reference, not /metrics', async () => {
    ctx = await createTestApp();
    const paths = Object.keys((await ctx.app.inject({ method: 'GET', url: '/docs/json' })).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(paths).not.toContain('/metrics');
  });
});
