import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './test/haproxy.js';
import { NGINX, startNginx, type RunningNginx } from './test/nginx.js';
import { closeStandIns, send, standIn, type Outcome } from './test/standIns.js';

/**
 * deploy/nginx.conf as operators install it (`nginx -t` first), in front of stand-in processes that
 * misbehave on purpose: what it passes to the next process and what it never sends twice
 * (docs/decisions.md §Several processes).
 */
describe("deploy/nginx.conf's retries", () => {
  let nginx: RunningNginx | undefined;
  beforeAll(() => {
    if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx`);
  });
  afterEach(async () => {
    await nginx?.stop();
    nginx = undefined;
    await closeStandIns();
  });

  it('never sends a POST again once a process had it, and sends a GET to the others', async () => {
    const dying = [await standIn('die'), await standIn('die'), await standIn('die')];
    nginx = await startNginx(
      dying.map((d) => d.address),
      await freePort(),
    );
    expect(await send(nginx.url, 'POST', '/write')).toEqual({ status: 502 });
    expect(dying.flatMap((d) => d.seen)).toEqual(['POST /write']);

    for (const d of dying) d.seen.length = 0;
    expect(await send(nginx.url, 'GET', '/read')).toEqual({ status: 502 });
    // `proxy_next_upstream_tries 3`: each process once.
    expect(dying.map((d) => d.seen)).toEqual([['GET /read'], ['GET /read'], ['GET /read']]);
  }, 60_000);

  it('sends any request, a POST too, to another process when its connection is refused', async () => {
    const [alive, gone] = [await standIn('answer'), await standIn('answer')];
    if (!alive || !gone) throw new Error('no stand-ins');
    nginx = await startNginx([alive.address, gone.address], await freePort());
    await gone.close();
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await send(nginx.url, 'POST', `/write/${i}`));
    expect(outcomes).toEqual(Array<Outcome>(6).fill({ status: 200 }));
    expect(alive.seen).toHaveLength(6);
  }, 60_000);

  it("passes a stopping process's 503 on for a GET; a POST it had gets the 503 itself", async () => {
    const [stopping, alive] = [await standIn('stopping'), await standIn('answer')];
    if (!stopping || !alive) throw new Error('no stand-ins');
    nginx = await startNginx([stopping.address, alive.address], await freePort());
    // The two are taken in turn: one POST reaches the stopping process, which refused it (503: not
    // applied, to be repeated); it is not sent again.
    const writes = [await send(nginx.url, 'POST', '/write/1'), await send(nginx.url, 'POST', '/write/2')];
    expect(writes.map((w) => ('status' in w ? w.status : w.error)).sort()).toEqual([200, 503]);
    expect([stopping.seen.length, alive.seen.length]).toEqual([1, 1]);
    const reads: Outcome[] = [];
    for (let i = 0; i < 4; i++) reads.push(await send(nginx.url, 'GET', `/read/${i}`));
    expect(reads).toEqual(Array<Outcome>(4).fill({ status: 200 }));
    expect(alive.seen.filter((s) => s.startsWith('GET'))).toHaveLength(4);
  }, 60_000);
});
