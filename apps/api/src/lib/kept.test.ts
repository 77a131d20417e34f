import { describe, expect, it } from 'vitest';
import { deepFreeze, keepNewest } from './kept.js';

describe('kept values', () => {
  it('freezes a value through and through', () => {
    const value = deepFreeze({ list: [{ id: 1 }], inner: { name: 'a' } });
    expect(Object.isFrozen(value.list[0])).toBe(true);
    expect(Object.isFrozen(value.inner)).toBe(true);
    expect(() => {
      (value.list as { id: number }[]).push({ id: 2 });
    }).toThrow();
  });

  it('keeps the newest entries up to the capacity, a key set again counting as new', () => {
    const map = new Map<string, number>();
    keepNewest(map, 'a', 1, 2);
    keepNewest(map, 'b', 2, 2);
    keepNewest(map, 'a', 3, 2);
    keepNewest(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
