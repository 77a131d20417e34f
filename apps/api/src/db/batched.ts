interface Waiting<R> {
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Lookups by key answered together by one statement while an earlier one is running: on PostgreSQL
 * every statement is a round trip to a backend sharing the machine's cores, and under load many
 * requests ask at once (every request starts with its session lookup). A lookup asked while no read is
 * running is read at once (after the other lookups of the same turn of the event loop, which join it);
 * those asked while reads run wait for the first to end and go together in the next. At low load a
 * lookup is one statement, as it would be alone.
 */
export class BatchedLookup<K, R> {
  #pending: Map<K, Waiting<R>[]> | undefined;
  #running = 0;

  /**
   * `readAll` answers the rows of the keys it finds; keys it does not answer have none. At most
   * `concurrency` reads run at once; one running longer than `slowMs` no longer counts.
   */
  constructor(
    private readonly readAll: (keys: K[]) => Promise<Map<K, R>>,
    private readonly concurrency = 2,
    private readonly slowMs = 1_000,
  ) {}

  get(key: K): Promise<R | undefined> {
    let pending = this.#pending;
    if (!pending) {
      pending = this.#pending = new Map();
      // After the I/O callbacks of this turn, every request read in it has asked; when reads are
      // running, the batch goes when one of them ends.
      if (this.#running < this.concurrency) setImmediate(() => this.flush());
    }
    const waiting = pending;
    return new Promise((resolve, reject) => {
      const list = waiting.get(key);
      if (list) list.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
  }

  /** The rows of several keys, in their order, from the same batch. */
  getAll(keys: readonly K[]): Promise<(R | undefined)[]> {
    return Promise.all(keys.map((k) => this.get(k)));
  }

  private flush() {
    const batch = this.#pending;
    if (!batch || this.#running >= this.concurrency) return;
    this.#pending = undefined;
    this.#running++;
    // A read that takes too long (a stuck connection) stops holding back the next batches.
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      clearTimeout(slow);
      this.#running--;
      this.flush();
    };
    const slow = setTimeout(done, this.slowMs);
    slow.unref();
    Promise.resolve()
      .then(() => this.readAll([...batch.keys()]))
      .then(
        (rows) => {
          for (const [key, list] of batch) for (const w of list) w.resolve(rows.get(key));
        },
        (error: unknown) => {
          for (const list of batch.values()) for (const w of list) w.reject(error);
        },
      )
      .finally(done);
  }
}
