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

/** Columns stored as 0/1 on SQLite that the application reads as booleans. */
const BOOLEAN_NAME = /^(is_|has_)|^(remember|randomize_questions|randomize_answers|show_correct_answers)$/;

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
 * SQLite has no boolean type: this plugin is the one place where booleans become 0/1 on the way in
 * and boolean-named columns become booleans on the way out.
 */
export class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #params = new BooleanParams();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#params.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key of Object.keys(row)) {
        const v = row[key];
        if (typeof v === 'number' && BOOLEAN_NAME.test(key)) row[key] = v !== 0;
      }
    }
    return args.result;
  }
}
