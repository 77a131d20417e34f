import { sql, type Kysely } from 'kysely';

/** The sweep that finishes expired attempts looks only at open ones, by their expiry. */
export function openAttemptsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('test_attempts_open_expiry_idx')
        .on('test_attempts')
        .column('expires_at')
        .where(sql.ref('finished_at'), 'is', null)
        .execute();
    },
  };
}
