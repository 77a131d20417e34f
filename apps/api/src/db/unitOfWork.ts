import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import type { DialectKind } from './dialect.js';
import type { Database } from './schema.js';

/**
 * The transaction boundary of the services (DESIGN.md §3): a service wraps a rule that spans tables
 * in `run`, and every repository query issued inside it, however deep, runs in that one transaction
 * on either database. Repositories read `db` for each query and never open transactions themselves.
 */
export class UnitOfWork {
  readonly #current = new AsyncLocalStorage<Transaction<Database>>();

  constructor(
    private readonly root: Kysely<Database>,
    readonly kind: DialectKind,
  ) {}

  /** The executor for the next query: the open unit's transaction, else the pool. */
  get db(): Kysely<Database> {
    return this.#current.getStore() ?? this.root;
  }

  get inUnit(): boolean {
    return this.#current.getStore() !== undefined;
  }

  /** Runs `work` atomically; a unit opened inside another joins it (one commit, at the outer end). */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inUnit) return work();
    return this.root.transaction().execute((trx) => this.#current.run(trx, work));
  }
}
