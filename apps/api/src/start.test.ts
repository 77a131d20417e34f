import { connect as tcpConnect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alive, buildServer, refused, start, stopAll, within } from './test/spawned.js';

/**
 * `npm start` as an operator runs it: the real build in apps/api/dist, spawned through npm and
 * scripts/start.mjs. Checks the printed address and that stopping any process of the chain stops
 * the server (issue 9: it used to be orphaned when npm was stopped).
 */
describe('npm start', () => {
  // Incremental: nothing to do when apps/api/dist is current (CI typechecks, and so builds, first).
  beforeAll(buildServer, 240_000);
  afterEach(stopAll);

  it('prints the address it really listens on, and stopping npm stops the server', async () => {
    const r = start('npm', ['start', '--silent', '--', '--no-build']);
    const url = await within(r, 'start banner', r.url, 60_000);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    expect((await fetch(`${url}/api/config`)).status).toBe(200);
    const pid = await within(r, 'server pid', r.serverPid, 10_000);

    r.proc.kill('SIGTERM');
    await within(r, 'everything stopped', r.closed, 20_000);
    expect(r.output()).toContain('shutting down: finishing in-flight requests');
    expect(alive(pid)).toBe(false);
    expect(await refused(url)).toBe(true);
  }, 90_000);

  it('stopping start.mjs with SIGTERM stops the server, and killing it outright does too', async () => {
    const soft = start(process.execPath, ['scripts/start.mjs', '--no-build']);
    const softUrl = await within(soft, 'start banner', soft.url, 60_000);
    soft.proc.kill('SIGTERM');
    expect(await within(soft, 'stopped', soft.closed, 20_000)).toEqual({ code: 0, signal: null });
    expect(await refused(softUrl)).toBe(true);

    // SIGKILL cannot be forwarded: the server notices its IPC channel closing.
    const hard = start(process.execPath, ['scripts/start.mjs', '--no-build']);
    const hardUrl = await within(hard, 'start banner', hard.url, 60_000);
    const pid = await within(hard, 'server pid', hard.serverPid, 10_000);
    hard.proc.kill('SIGKILL');
    await within(hard, 'server stopped', hard.closed, 20_000);
    expect(hard.output()).toContain('parent exited');
    expect(alive(pid)).toBe(false);
    expect(await refused(hardUrl)).toBe(true);
  }, 120_000);

  it('exits by force when a request is still running after SHUTDOWN_TIMEOUT_MS', async () => {
    // At debug the server logs a request as it arrives (an answered one is logged at info).
    const r = start(process.execPath, ['apps/api/dist/server.js'], { SHUTDOWN_TIMEOUT_MS: '300', LOG_LEVEL: 'debug' });
    const url = await within(r, 'start banner', r.url, 60_000);
    const { hostname, port } = new URL(url);
    // A request whose body never completes stays in flight for as long as the client likes (with the
    // CSRF token it passes the checks, and its handler waits for the body).
    const cookie = (await fetch(`${url}/api/check-auth`)).headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const token = decodeURIComponent(cookie.split('=')[1] ?? '');
    const socket = tcpConnect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    socket.write(
      `POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n` +
        `X-Requested-With: XMLHttpRequest\r\nX-XSRF-TOKEN: ${token}\r\nCookie: ${cookie}\r\n\r\n{"login":`,
    );
    await within(
      r,
      'request received',
      new Promise<void>((resolve) => {
        const seen = () => (r.output().includes('"url":"/login"') ? resolve() : undefined);
        seen();
        r.proc.stdout?.on('data', seen);
      }),
      10_000,
    );
    r.proc.kill('SIGTERM');
    expect(await within(r, 'forced exit', r.closed, 20_000)).toEqual({ code: 1, signal: null });
    expect(r.output()).toContain('requests still running after the drain time; exiting anyway');
    socket.destroy();
  }, 90_000);
});
