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
    case 'SelectAllNode':
      throw new Error('select * reads every column');
    case 'RawNode':
      throw new Error(`A raw SQL fragment hides what it reads: ${JSON.stringify(node.sqlFragments)}`);
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
