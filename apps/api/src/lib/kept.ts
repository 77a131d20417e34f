/**
 * Helpers for what a process keeps between requests (statements, snapshots, askable rows): shared
 * values are frozen so that no caller can change them for the others, and each keeper is bounded.
 */

/** Freezes the value and everything in it; what is frozen already is left as it is. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Sets `key` as the newest entry of `map` (a Map iterates in insertion order) and drops the oldest
 * past `capacity`.
 */
export function keepNewest<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > capacity) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
