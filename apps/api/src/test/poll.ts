/**
 * Asks `probe` again and again until it gives a value (anything but undefined or false), for a
 * condition of another process that cannot be awaited as an event (a log line, a database row, a
 * balancer's view of its servers). Fails after `ms` with `context()` (the processes' output), so that
 * a condition that never comes says why instead of hanging.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ms: number,
  context: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      // A probe may fail while the thing it asks is not up yet; the last failure is told at the end.
      last = error;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? ` (last error: ${last.message})` : '';
      throw new Error(`${what}: not so after ${ms} ms${why}\n${context()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
