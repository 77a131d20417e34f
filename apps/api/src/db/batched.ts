/**
 * Lookups by key asked in the same turn of the event loop, answered together by one statement: on
 * PostgreSQL every statement is a round trip to a backend sharing the machine's cores, and under load
 * the session lookups of many requests arrive in each turn (every request starts with one). At low
 * load a batch is one key, asked one turn later than alone.
 */
export class BatchedLookup<K, R> {
  #pending: Map<K, { resolve: (row: R | undefined) => void; reject: (error: unknown) => void }[]> | undefined;

  /** `readAll` answers the rows of the keys it finds; keys it does not answer have none. */
  constructor(private readonly readAll: (keys: K[]) => Promise<Map<K, R>>) {}

  get(key: K): Promise<R | undefined> {
    let pending = this.#pending;
    if (!pending) {
      const batch = new Map<K, { resolve: (row: R | undefined) => void; reject: (error: unknown) => void }[]>();
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

  private flush(batch: Map<K, { resolve: (row: R | undefined) => void; reject: (error: unknown) => void }[]>) {
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
