import {
  AliasNode,
  ColumnNode,
  IdentifierNode,
  PostgresAdapter,
  ReferenceNode,
  SelectQueryNode,
  SqliteAdapter,
  type CompiledQuery,
  type Compilable,
  type Kysely,
  type RootOperationNode,
} from 'kysely';
import type { Database } from './schema.js';
import { columnsOfKind } from './columns.js';
import { pgJsonTimeToIso } from './pgTimes.js';
import { sqliteColumnConversion } from './values.js';

const SLOT = '\u0000prepared-slot:';

/** A bound value; an array only where PostgreSQL compares with it as one value (`= any(…)`). */
type Scalar = string | number | null | readonly string[];

interface Compiled {
  query: CompiledQuery;
  /** For each bound parameter, the name of the slot it stands for, or undefined for a constant. */
  slots: (string | undefined)[];
  /** With `rowsAsJson`: the columns, in the order of each row's JSON array, and their conversions. */
  json?: { columns: readonly string[]; conversions: readonly (Conversion | undefined)[] };
}

type Conversion = (value: unknown) => unknown;

export interface PreparedOptions {
  /**
   * Read the rows as one JSON text that the database builds (`json_group_array` on SQLite,
   * `json_agg` on PostgreSQL), parsed in one call. Both drivers make each value of a row on its own
   * (better-sqlite3 through the native API, about 0.2 µs a value; pg by parsing its text, about a
   * microsecond), which was most of the time of the wide lists of a page: the catalogue's 205
   * courses of 30 columns. Same rows, order and values: booleans and JSON (SQLite) and times
   * (PostgreSQL) are converted by column name, as values.ts does, so such columns keep their names.
   * For lists of many rows and columns; the columns must have distinct plain names.
   */
  rowsAsJson?: boolean;
}

const TIME_COLUMNS = columnsOfKind('time');
const pgJsonConversion = (name: string): Conversion | undefined =>
  TIME_COLUMNS.has(name) ? (v) => (typeof v === 'string' ? pgJsonTimeToIso(v) : v) : undefined;

/** The output names of a select's columns, or undefined when one has no plain name. */
function selectionNames(node: RootOperationNode): string[] | undefined {
  if (!SelectQueryNode.is(node)) return undefined;
  const names: string[] = [];
  for (const { selection: s } of node.selections ?? []) {
    if (ReferenceNode.is(s) && ColumnNode.is(s.column)) names.push(s.column.column.name);
    else if (AliasNode.is(s) && IdentifierNode.is(s.alias)) names.push(s.alias.name);
    else return undefined;
  }
  return new Set(names).size === names.length ? names : undefined;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
    private readonly options: PreparedOptions = {},
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
      if (this.options.rowsAsJson) compiled = asJson(compiled, key);
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
    const { rows } = await db.executeQuery(this.bind(db, params));
    const { json } = this.compiledFor(db);
    return json ? (rowsOfJson(json, rows) as O[]) : rows;
  }

  async executeTakeFirst(db: Kysely<Database>, params: P): Promise<O | undefined> {
    return (await this.execute(db, params))[0];
  }
}

/**
 * The statement wrapped to give its rows as one JSON array of arrays. The subquery's order is kept:
 * SQLite does not flatten a subquery with ORDER BY into an aggregate, and PostgreSQL aggregates a
 * sorted subquery's rows in its order (the test compares both with the plain read).
 */
function asJson(compiled: Compiled, adapter: object): Compiled {
  const columns = selectionNames(compiled.query.query);
  if (!columns) throw new Error('rowsAsJson needs a select whose columns all have distinct plain names');
  const list = columns.map((c) => `t.${quoted(c)}`).join(', ');
  let sql: string;
  let conversions: (Conversion | undefined)[];
  if (adapter instanceof SqliteAdapter) {
    sql = `select json_group_array(json_array(${list})) as "rows" from (${compiled.query.sql}) as t`;
    conversions = columns.map(sqliteColumnConversion);
  } else if (adapter instanceof PostgresAdapter) {
    sql = `select coalesce(json_agg(json_build_array(${list})), '[]')::text as "rows" from (${compiled.query.sql}) as t`;
    conversions = columns.map(pgJsonConversion);
  } else return compiled;
  return { ...compiled, query: { ...compiled.query, sql }, json: { columns, conversions } };
}

/** The rows of a `rowsAsJson` read: each JSON array made an object, its values converted. */
function rowsOfJson(json: NonNullable<Compiled['json']>, result: readonly unknown[]): Record<string, unknown>[] {
  const text = (result[0] as { rows?: unknown } | undefined)?.rows;
  const arrays = typeof text === 'string' ? (JSON.parse(text) as unknown[][]) : [];
  const { columns, conversions } = json;
  return arrays.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const convert = conversions[i];
      row[columns[i] as string] = convert ? convert(values[i]) : values[i];
    }
    return row;
  });
}
