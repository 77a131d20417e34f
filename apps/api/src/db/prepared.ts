import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

const SLOT = '\u0000prepared-slot:';

/** A bound value; an array only where PostgreSQL compares with it as one value (`= any(…)`). */
type Scalar = string | number | null | readonly string[];

interface Compiled {
  query: CompiledQuery;
  /** For each bound parameter, the name of the slot it stands for, or undefined for a constant. */
  slots: (string | undefined)[];
}

/**
 * A query built and compiled once per dialect (plugins applied), then run with new values in its
 * slots: Kysely otherwise builds, transforms and compiles the same statement on every call, which
 * cost a tenth to a quarter of the server's CPU on the hottest paths (the session lookup of every
 * request, the home lists, the attempt calls). `build` receives stand-ins for the parameters and must
 * use each as a bound value only (a `where` comparison, a `set` value), never in an `in` list or as a
 * boolean (SQLite's booleans are converted when compiling, so booleans stay constants of the query).
 */
export class PreparedQuery<P extends Record<string, Scalar>, O> {
  readonly #compiled = new WeakMap<object, Compiled>();

  constructor(
    private readonly names: readonly (keyof P & string)[],
    private readonly build: (db: Kysely<Database>, params: P) => Compilable<O>,
  ) {}

  private compiledFor(db: Kysely<Database>): Compiled {
    // One compilation per dialect: a transaction shares its database's adapter.
    const key = db.getExecutor().adapter;
    let compiled = this.#compiled.get(key);
    if (!compiled) {
      const standIns = Object.fromEntries(this.names.map((n) => [n, `${SLOT}${n}`])) as unknown as P;
      const query = this.build(db, standIns).compile();
      const slots = query.parameters.map((p) => {
        if (typeof p !== 'string' || !p.startsWith(SLOT)) return undefined;
        const name = p.slice(SLOT.length);
        if (!this.names.includes(name)) throw new Error(`Prepared query binds a value made from a slot: ${name}`);
        return name;
      });
      const missing = this.names.filter((n) => !slots.includes(n));
      if (missing.length > 0) throw new Error(`Prepared query does not bind ${missing.join(', ')}`);
      compiled = { query, slots };
      this.#compiled.set(key, compiled);
    }
    return compiled;
  }

  /** The compiled statement with the given values in its slots. */
  bind(db: Kysely<Database>, params: P): CompiledQuery<O> {
    const { query, slots } = this.compiledFor(db);
    const parameters = query.parameters.map((constant, i) => {
      const name = slots[i];
      return name === undefined ? constant : params[name];
    });
    return { ...query, parameters } as CompiledQuery<O>;
  }

  async execute(db: Kysely<Database>, params: P): Promise<O[]> {
    return (await db.executeQuery(this.bind(db, params))).rows;
  }

  async executeTakeFirst(db: Kysely<Database>, params: P): Promise<O | undefined> {
    return (await this.execute(db, params))[0];
  }
}
