/** A small deterministic generator for property tests: the same seed replays the same sequence. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    some: <T>(list: readonly T[]): T[] => list.filter(() => next() < 0.35),
    chance: (p: number) => next() < p,
  };
}
