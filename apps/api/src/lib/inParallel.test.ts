import { describe, expect, it } from 'vitest';
import { inParallel } from './inParallel.js';

/** A promise and its resolvers, settled by the test: no timers. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

describe('inParallel', () => {
  it('runs at most the limit at once and every item once', async () => {
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    const done = inParallel([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      await gates[i]?.promise;
    });
    await ticks();
    expect(started).toEqual([0, 1]);
    gates[1]?.open();
    await ticks();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await done;
    expect(started.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('after a failure takes no new item and waits for the running ones before throwing it', async () => {
    const gates = Array.from({ length: 4 }, gate);
    const started: number[] = [];
    const finished: number[] = [];
    let settled = false;
    const done = inParallel([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      await gates[i]?.promise;
      finished.push(i);
    }).finally(() => {
      settled = true;
    });
    await ticks();
    expect(started).toEqual([0, 1]);
    gates[0]?.fail(new Error('диск'));
    await ticks();
    // Item 1 is still running: the failure waits for it.
    expect(settled).toBe(false);
    gates[1]?.open();
    await expect(done).rejects.toThrow('диск');
    expect(finished).toEqual([1]);
    expect(started).toEqual([0, 1]);
  });

  it('when the items fail part-way, waits for the running ones before throwing', async () => {
    const first = gate();
    let finished = false;
    let settled = false;
    async function* listing() {
      yield 0;
      throw new Error('список прерван');
    }
    const done = inParallel(listing(), 4, async () => {
      await first.promise;
      finished = true;
    }).finally(() => {
      settled = true;
    });
    await ticks();
    expect(settled).toBe(false);
    first.open();
    await expect(done).rejects.toThrow('список прерван');
    expect(finished).toBe(true);
  });
});
