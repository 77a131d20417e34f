import type { Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Idempotency keys (docs/decisions.md §Several processes, platform/idempotency.ts): one row per
 * signed-in user and `Idempotency-Key` of a POST, claimed before the request runs. A row without a
 * status is a request under way (or one whose process died); with a status, the answer to replay.
 * Rows live 24 hours; a user's hard deletion takes theirs along.
 */
export function idempotencyKeysMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        // The method and route pattern the key was first used for: another request never gets its answer.
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('body', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();
      // The periodic pass deletes by age.
      await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
    },
  };
}
