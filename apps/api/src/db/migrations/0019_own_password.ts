import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Issue 30: a password that an administrator had mailed (a new account, an admin reset) must be
 * replaced by the user's own before anything else. Existing accounts, the demo company's among
 * them, keep working as they are: the column starts false for every row.
 */
export function ownPasswordMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('must_change_password', t.bool, (c) => c.notNull().defaultTo(t.falseValue))
        .execute();
    },
  };
}
