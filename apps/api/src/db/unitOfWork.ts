import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import type { DialectKind } from './dialect.js';
import type { Database } from './schema.js';

/**
 * The transaction boundary of the services (docs/architecture.md §Layers): a service wraps a rule that spans tables
 * in `run`, and every repository query issued inside it, however deep, runs in that one transaction
 * on either database. Repositories read `db` for each query and never open transactions themselves.
 */
/**
 * An open unit: its transaction, what is to be written once at its end (see `UnitOfWork.atEnd`), and
 * what is to be done once it has committed (`UnitOfWork.afterCommit`).
 */
interface Unit {
  trx: Transaction<Database>;
  atEnd: Map<string, { value: unknown; finish: () => Promise<void> }>;
  committed: (() => void)[];
}

export class UnitOfWork {
  readonly #current = new AsyncLocalStorage<Unit>();

  constructor(
    private readonly root: Kysely<Database>,
    readonly kind: DialectKind,
  ) {}

  /** The executor for the next query: the open unit's transaction, else the pool. */
  get db(): Kysely<Database> {
    return this.#current.getStore()?.trx ?? this.root;
  }

  get inUnit(): boolean {
    return this.#current.getStore() !== undefined;
  }

  /** Runs `work` atomically; a unit opened inside another joins it (one commit, at the outer end). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inUnit) return work();
    const committed: (() => void)[] = [];
    const result = await this.root.transaction().execute((trx) => {
      const unit: Unit = { trx, atEnd: new Map(), committed };
      return this.#current.run(unit, async () => {
        const result = await work();
        // In the transaction, before it commits; a finisher may register another.
        for (const [key, pending] of unit.atEnd) {
          unit.atEnd.delete(key);
          await pending.finish();
        }
        return result;
      });
    });
    for (const done of committed) done();
    return result;
  }

  /**
   * Runs `done` once what the current unit wrote has committed (at once outside a unit; never if the
   * unit rolls back): for what a process may keep only of committed rows.
   */
  afterCommit(done: () => void): void {
    const unit = this.#current.getStore();
    if (unit) unit.committed.push(done);
    else done();
  }

  /**
   * Work gathered over a unit and done once at its end, inside its transaction: the first call of a
   * unit with `key` creates the value and registers `finish(value)`, later calls get the same value.
   * Outside a unit there is nothing to gather into: undefined, and the caller does the work now.
   */
  atEnd<T>(key: string, create: () => T, finish: (value: T) => Promise<void>): T | undefined {
    const unit = this.#current.getStore();
    if (!unit) return undefined;
    const held = unit.atEnd.get(key);
    if (held) return held.value as T;
    const value = create();
    unit.atEnd.set(key, { value, finish: () => finish(value) });
    return value;
  }
}
