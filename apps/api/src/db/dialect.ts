import { sql, type ColumnDefinitionBuilder, type RawBuilder } from 'kysely';

export type DialectKind = 'sqlite' | 'postgres';

/**
 * Column types that differ between the two databases (DESIGN.md §8), so that one migration
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
