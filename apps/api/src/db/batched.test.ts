import { describe, expect, it, vi } from 'vitest';
import { BatchedLookup } from './batched.js';

describe('batched lookups', () => {
  it('answers the keys asked in one turn with one read, each its own row or none', async () => {
    const reads: number[][] = [];
    const lookup = new BatchedLookup<number, string>(async (keys) => {
      reads.push(keys);
      return new Map(keys.filter((k) => k !== 3).map((k) => [k, `row ${k}`]));
    });
    const first = await Promise.all([lookup.get(1), lookup.getAll([2, 3, 1]), lookup.get(2)]);
    expect(first).toEqual(['row 1', ['row 2', undefined, 'row 1'], 'row 2']);
    expect(reads).toEqual([[1, 2, 3]]);
    // A later turn is another batch.
    expect(await lookup.get(4)).toBe('row 4');
    expect(reads).toEqual([[1, 2, 3], [4]]);
  });

  it('fails every lookup of a batch whose read fails, and the next batch reads again', async () => {
    let fail = true;
    const lookup = new BatchedLookup<number, number>(async (keys) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, k * 10]));
    });
    const failed = await Promise.allSettled([lookup.get(1), lookup.get(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await lookup.getAll([1, 2])).toEqual([10, 20]);
  });

  it('gathers the lookups asked while reads run into the next read, at most `concurrency` at a time', async () => {
    const reads: number[][] = [];
    let finish = () => {};
    const lookup = new BatchedLookup<number, number>(async (keys) => {
      reads.push(keys);
      if (reads.length === 1) await new Promise<void>((resolve) => (finish = resolve));
      return new Map(keys.map((k) => [k, k]));
    }, 1);
    const first = lookup.get(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([[1]]);
    // Asked in later turns while the first read runs: they wait for it, then go together.
    const later = [lookup.get(2)];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(lookup.get(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([[1]]);
    finish();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(reads).toEqual([[1], [2, 3]]);
  });

  it('lets the next batch go past a read that hangs, and survives a read that throws at once', async () => {
    const reads: number[][] = [];
    const lookup = new BatchedLookup<number, number>(
      (keys) => {
        reads.push(keys);
        if (keys.includes(1)) return new Promise(() => {});
        if (keys.includes(2)) throw new Error('thrown before any promise');
        return Promise.resolve(new Map(keys.map((k) => [k, k])));
      },
      1,
      20,
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      void lookup.get(1);
      await new Promise((resolve) => setImmediate(resolve));
      const second = lookup.get(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(reads).toEqual([[1]]);
      vi.advanceTimersByTime(20);
      await expect(second).rejects.toThrow('thrown before any promise');
      expect(await lookup.get(3)).toBe(3);
      expect(reads).toEqual([[1], [2], [3]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
