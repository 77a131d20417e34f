import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, HAPROXY, startHaproxy, stopAllHaproxy, type RunningHaproxy } from './test/haproxy.js';
import { pollUntil } from './test/poll.js';
import { closeStandIns, send as sendTo, standIn, type Outcome } from './test/standIns.js';

/**
 * What deploy/haproxy.cfg sends again, shown on stand-in processes that misbehave on purpose: one
 * that takes every request and dies on it (closes without an answer) and one whose port is gone.
 * The cluster test kills a real process, but where its requests stood at that moment is chance; here
 * each case happens every time.
 */

const allUp = (b: RunningHaproxy) =>
  pollUntil('every stand-in UP', async () => (await b.servers()).every((s) => s.status === 'UP'), 20_000, b.output);

describe("deploy/haproxy.cfg's retries", () => {
  beforeAll(() => {
    if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy`);
  });
  afterEach(async () => {
    await stopAllHaproxy();
    await closeStandIns();
  });

  it('never sends a POST again once a process had it, and sends a GET to the others', async () => {
    const dying = [await standIn('die'), await standIn('die'), await standIn('die')];
    const balancer = await startHaproxy(
      dying.map((d) => d.address),
      await freePort(),
    );
    await allUp(balancer);

    expect(await sendTo(balancer.url, 'POST', '/write')).toEqual({ status: 502 });
    expect(dying.flatMap((d) => d.seen)).toEqual(['POST /write']);

    for (const d of dying) d.seen.length = 0;
    expect(await sendTo(balancer.url, 'GET', '/read')).toEqual({ status: 502 });
    // The first try and `retries 3`, each on another process (`option redispatch 1`).
    const tries = dying.map((d) => d.seen.length);
    expect(tries.reduce((a, b) => a + b, 0)).toBe(4);
    expect(tries.filter((n) => n > 0).length).toBeGreaterThan(1);
  }, 60_000);

  it('sends any request, a POST too, to another process when its connection is refused', async () => {
    const [alive, gone] = [await standIn('answer'), await standIn('answer')];
    if (!alive || !gone) throw new Error('no stand-ins');
    const balancer = await startHaproxy([alive.address, gone.address], await freePort());
    await allUp(balancer);
    // The port closes; the balancer's checks take a few seconds to see it (inter 2s, fall 2).
    await gone.close();
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await sendTo(balancer.url, 'POST', `/write/${i}`));
    expect(outcomes).toEqual(Array<Outcome>(6).fill({ status: 200 }));
    expect(alive.seen).toHaveLength(6);
    // At least one of them met the closed port first: HAProxy logs it with its retry (`+1`).
    await pollUntil(
      'a redispatched POST in the log',
      () => / \d+\/\d+\/\d+\/\d+\/\+1 .*"POST \/write/.test(balancer.output()),
      10_000,
      balancer.output,
    );
  }, 60_000);
});
