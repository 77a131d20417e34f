import type { OperationNode } from 'kysely';

/** The tables a select names, by alias (or by name when it has none), and the select around it. */
interface Scope {
  tables: Map<string, string>;
  parent: Scope | undefined;
}

type Node = OperationNode & Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';

/** `name` of an IdentifierNode, or of the identifier of a TableNode. */
const nameOf = (node: unknown): string => {
  if (isNode(node) && node.kind === 'IdentifierNode') return String(node.name);
  if (isNode(node) && node.kind === 'TableNode') return nameOf((node.table as Node).identifier);
  throw new Error(`Not a name: ${JSON.stringify(node)}`);
};

function addTable(node: unknown, scope: Scope): void {
  if (isNode(node) && node.kind === 'TableNode') {
    scope.tables.set(nameOf(node), nameOf(node));
    return;
  }
  if (isNode(node) && node.kind === 'AliasNode' && isNode(node.node) && node.node.kind === 'TableNode') {
    scope.tables.set(nameOf(node.alias), nameOf(node.node));
    return;
  }
  // A derived table's columns are its select's, under other names: not followed.
  throw new Error(`Only tables are followed in from and join, not ${isNode(node) ? node.kind : typeof node}`);
}

function tableOf(scope: Scope | undefined, alias: string | undefined, column: string): string {
  if (alias === undefined) {
    // An unqualified column is the only table's of its own select (an alias of the select list is not followed).
    const tables = [...(scope?.tables.values() ?? [])];
    if (tables.length !== 1 || tables[0] === undefined)
      throw new Error(`Unqualified column ${column} among tables ${tables.join(', ') || '(none)'}`);
    return tables[0];
  }
  for (let s = scope; s; s = s.parent) {
    const table = s.tables.get(alias);
    if (table !== undefined) return table;
  }
  throw new Error(`Unknown table or alias ${alias} (of ${column})`);
}

/** SQL text without a name in it: operators, parentheses, `is [not] null`, `and`, `or`, `not`. */
const KEYWORDS_ONLY = /^(?:\s|[()=<>!]|\b(?:is|not|null|and|or)\b)*$/i;

function walk(node: unknown, scope: Scope | undefined, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) walk(n, scope, out);
    return;
  }
  if (!isNode(node)) return;
  switch (node.kind) {
    case 'SelectQueryNode': {
      const inner: Scope = { tables: new Map(), parent: scope };
      const from = node.from as { froms: readonly unknown[] } | undefined;
      for (const f of from?.froms ?? []) addTable(f, inner);
      for (const join of (node.joins as readonly Node[] | undefined) ?? []) addTable(join.table, inner);
      for (const value of Object.values(node)) walk(value, inner, out);
      return;
    }
    case 'ReferenceNode': {
      const column = node.column as Node;
      const alias = node.table === undefined ? undefined : nameOf(node.table);
      if (column.kind === 'SelectAllNode') throw new Error(`${alias ?? ''}.* reads every column`);
      const name = nameOf(column.column);
      out.add(`${tableOf(scope, alias, name)}.${name}`);
      return;
    }
    case 'ColumnNode': {
      const name = nameOf(node.column);
      out.add(`${tableOf(scope, undefined, name)}.${name}`);
      return;
    }
    case 'AggregateFunctionNode': {
      // count(*) counts rows: it reads no column (its filter or window may).
      const [only, ...more] = node.aggregated as readonly Node[];
      const star = only?.kind === 'SelectionNode' ? (only.selection as Node) : only;
      const countsRows = node.func === 'count' && more.length === 0 && star?.kind === 'SelectAllNode';
      for (const [key, value] of Object.entries(node))
        if (!(countsRows && key === 'aggregated')) walk(value, scope, out);
      return;
    }
    case 'SelectAllNode':
      throw new Error('select * reads every column');
    case 'RawNode': {
      // A fragment whose text names nothing (`${ref} is null`, the live-row rules of courses/live.ts)
      // reads only what its parameters read; any other text could name a column unseen.
      const fragments = node.sqlFragments as readonly string[];
      if (!fragments.every((f) => KEYWORDS_ONLY.test(f)))
        throw new Error(`A raw SQL fragment hides what it reads: ${JSON.stringify(fragments)}`);
      walk(node.parameters, scope, out);
      return;
    }
    case 'TableNode':
    case 'IdentifierNode':
      // Table names (from, join) and aliases: no column.
      return;
    default:
      for (const value of Object.values(node)) walk(value, scope, out);
  }
}

/**
 * Every `table.column` a select reads (selected, joined on, filtered, ordered by), aliases resolved to
 * their tables, from Kysely's operation nodes rather than the SQL text. What it cannot see through
 * (raw SQL, `select *`, a derived table, an unqualified column among several tables) fails, so that
 * nothing is read unseen.
 */
export function columnsRead(query: OperationNode): string[] {
  const out = new Set<string>();
  walk(query, undefined, out);
  return [...out].sort();
}
