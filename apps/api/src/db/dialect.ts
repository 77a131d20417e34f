import { sql, type ColumnDefinitionBuilder, type RawBuilder } from 'kysely';

export type DialectKind = 'sqlite' | 'postgres';

/**
 * Column types that differ between the two databases (docs/rules.md §Two databases), so that one migration
 * set runs on both. Times are ISO-8601 UTC text with milliseconds on SQLite, timestamptz on PostgreSQL.
 */
export function columnTypes(kind: DialectKind) {
  const pg = kind === 'postgres';
  return {
    bool: pg ? ('boolean' as const) : ('integer' as const),
    time: pg ? ('timestamptz' as const) : ('text' as const),
    json: pg ? ('jsonb' as const) : ('text' as const),
    now: (): RawBuilder<string> => (pg ? sql<string>`now()` : sql<string>`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
    falseValue: pg ? sql<boolean>`false` : sql<boolean>`0`,
    trueValue: pg ? sql<boolean>`true` : sql<boolean>`1`,
    id: (c: ColumnDefinitionBuilder) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
  };
}

export interface RowsColumn<C extends string> {
  name: C;
  type: 'integer' | 'text';
}

/**
 * Many rows as one bound value, usable as a table (`from ${rowsTable(...)} as t`): a JSON array on
 * SQLite, one array per column on PostgreSQL. A set-based statement over 10 000 rows is then one
 * short statement with one to four parameters, prepared once, instead of thousands of bound values
 * that the query builder turns into nodes one by one.
 */
export function rowsTable<C extends string>(
  kind: DialectKind,
  columns: readonly RowsColumn<C>[],
  rows: readonly (readonly (number | string | null)[])[],
): RawBuilder<Record<C, number | string | null>> {
  if (kind === 'sqlite') {
    const fields = columns.map((c, i) => sql`value ->> ${sql.lit(i)} as ${sql.ref(c.name)}`);
    return sql`(select ${sql.join(fields)} from json_each(${JSON.stringify(rows)}))`;
  }
  const arrays = columns.map(
    (c, i) => sql`cast(${rows.map((r) => r[i])} as ${sql.raw(c.type === 'integer' ? 'integer[]' : 'text[]')})`,
  );
  return sql`(select * from unnest(${sql.join(arrays)}) as rows_table(${sql.join(columns.map((c) => sql.ref(c.name)))}))`;
}

/** An ISO time as a value of a time column where no column gives it a type (a select list). */
export function timeValue(kind: DialectKind, at: string): RawBuilder<string> {
  return kind === 'postgres' ? sql<string>`cast(${at} as timestamptz)` : sql<string>`${at}`;
}
