/**
 * `work` for each item, at most `limit` at once: a bucket's latency per file would make thousands of
 * small files slow one by one, and memory stays bounded. The first failure stops taking new items;
 * the ones running are waited for before it is thrown, so a caller cleaning up after a failure never
 * races a write still in flight.
 */
export async function inParallel<T>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  const failures: unknown[] = [];
  try {
    for await (const item of items) {
      if (failures.length > 0) break;
      const task = work(item).catch((error: unknown) => void failures.push(error));
      running.add(task);
      void task.finally(() => running.delete(task));
      if (running.size >= limit) await Promise.race(running);
    }
  } finally {
    // Also when the items themselves fail (a listing cut off): nothing is left running behind.
    await Promise.all(running);
  }
  if (failures.length > 0) throw failures[0];
}
