import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

/**
 * An introspector of one PostgreSQL schema. Kysely's own reads every schema of the database and
 * asks `has_schema_privilege` of each by name: a schema dropped meanwhile (another test worker's,
 * or another tenant's) makes that read fail, and with many schemas it reads them all.
 */
export function schemaIntrospector(db: Kysely<Database>, schema: string): DatabaseIntrospector {
  const introspector: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{
        name: string;
      }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables(): Promise<TableMetadata[]> {
      const { rows } = await sql<{
        table_name: string;
        is_view: boolean;
        column_name: string | null;
        udt_name: string | null;
        is_nullable: string | null;
        column_default: string | null;
        is_identity: string | null;
      }>`
        select t.table_name, t.table_type = 'VIEW' as is_view, c.column_name, c.udt_name, c.is_nullable,
          c.column_default, c.is_identity
        from information_schema.tables t
        left join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
        where t.table_schema = ${schema}
        order by t.table_name, c.ordinal_position`.execute(db);
      const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
      for (const r of rows) {
        let table = tables.get(r.table_name);
        if (!table) {
          table = { name: r.table_name, schema, isView: r.is_view, columns: [] };
          tables.set(r.table_name, table);
        }
        if (r.column_name === null) continue;
        const identity = r.is_identity === 'YES';
        table.columns.push({
          name: r.column_name,
          dataType: r.udt_name ?? '',
          isAutoIncrementing: identity || (r.column_default?.startsWith('nextval(') ?? false),
          isNullable: r.is_nullable === 'YES',
          hasDefaultValue: identity || r.column_default !== null,
        });
      }
      return [...tables.values()];
    },
    async getMetadata() {
      return { tables: await introspector.getTables() };
    },
  };
  return introspector;
}

/** The introspector of the database's own tables: its schema's on PostgreSQL, the file's on SQLite. */
export function introspectionOf(db: Db): DatabaseIntrospector {
  return db.kind === 'postgres' && db.schema ? schemaIntrospector(db.kysely, db.schema) : db.kysely.introspection;
}

/** The database with `schemaIntrospector` in place of Kysely's (for the migrator, which asks it). */
export function withSchemaIntrospection(db: Kysely<Database>, schema: string): Kysely<Database> {
  const introspection = schemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely's methods use private fields: they run on the instance itself, not on the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
