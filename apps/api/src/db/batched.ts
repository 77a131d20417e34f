interface Waiting<R> {
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Lookups by key asked in the same turn of the event loop, answered together by one statement: on
 * PostgreSQL every statement is a round trip to a backend sharing the machine's cores, and under load
 * many requests ask in each turn (every request starts with its session lookup). At low load a batch
 * is one request's keys, asked one turn later than alone.
 */
export class BatchedLookup<K, R> {
  #pending: Map<K, Waiting<R>[]> | undefined;

  /** `readAll` answers the rows of the keys it finds; keys it does not answer have none. */
  constructor(private readonly readAll: (keys: K[]) => Promise<Map<K, R>>) {}

  get(key: K): Promise<R | undefined> {
    let pending = this.#pending;
    if (!pending) {
      const batch = new Map<K, Waiting<R>[]>();
      pending = this.#pending = batch;
      // After the I/O callbacks of this turn: every request read in it has asked by then.
      setImmediate(() => this.flush(batch));
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

  private flush(batch: Map<K, Waiting<R>[]>) {
    if (this.#pending === batch) this.#pending = undefined;
    this.readAll([...batch.keys()]).then(
      (rows) => {
        for (const [key, list] of batch) for (const w of list) w.resolve(rows.get(key));
      },
      (error: unknown) => {
        for (const list of batch.values()) for (const w of list) w.reject(error);
      },
    );
  }
}
