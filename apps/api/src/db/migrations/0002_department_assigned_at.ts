import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * When a user joined their current department: a department's courses count for a newcomer from
 * that moment (enrolled_at), not from the account's creation.
 */
export function departmentAssignedAtMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('department_assigned_at', t.time).execute();
    },
  };
}
