import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';
import { columnsOfKind } from './columns.js';
import { ROWS_CONVERTED } from './statementCache.js';

/** JSON text for a JSON column (both databases take text; PostgreSQL casts it to jsonb). */
export const toJson = (value: unknown): string => JSON.stringify(value);

const BOOLEAN_COLUMNS = columnsOfKind('bool');
const JSON_COLUMNS = columnsOfKind('json');

/** The conversion of a column's value read from SQLite, by the column's name (none: undefined). */
export function sqliteColumnConversion(name: string): ((value: unknown) => unknown) | undefined {
  if (BOOLEAN_COLUMNS.has(name)) return toBoolean;
  if (JSON_COLUMNS.has(name)) return parseJson;
  return undefined;
}
const toBoolean = (v: unknown) => (typeof v === 'number' ? v !== 0 : v);
const parseJson = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

const toDb = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

class BooleanParams extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const n = super.transformValue(node);
    return typeof n.value === 'boolean' ? { ...n, value: toDb(n.value) } : n;
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(toDb) };
  }
}

/**
 * SQLite has neither booleans nor JSON: this plugin is the one place where booleans become 0/1 on
 * the way in, and (with `sqliteColumnConversion`, which the statement cache applies while it builds
 * the rows) where the columns that columns.ts lists as booleans or JSON are turned back into
 * booleans and parsed values on the way out. A selection that renames such a column (`as`) gets the
 * raw value, so queries keep those names.
 */
export class SqliteValuesPlugin implements KyselyPlugin {
  readonly #params = new BooleanParams();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#params.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Rows the statement cache read with `sqliteColumnConversion` are converted already.
    if ((args.result.rows as { [ROWS_CONVERTED]?: true })[ROWS_CONVERTED]) return args.result;
    for (const row of args.result.rows) {
      for (const key of Object.keys(row)) {
        const conversion = sqliteColumnConversion(key);
        if (conversion) row[key] = conversion(row[key]);
      }
    }
    return args.result;
  }
}
