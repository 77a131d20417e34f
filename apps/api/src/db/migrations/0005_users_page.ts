import { sql, type Kysely } from 'kysely';

/** The employees list pages through live users in name order (issue 14): an index gives the page. */
export function usersPageMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('users_live_name_idx')
        .on('users')
        .columns(['last_name', 'first_name', 'id'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
    },
  };
}
