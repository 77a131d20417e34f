import type { Kysely } from 'kysely';

/**
 * `users.manager_id`: the employee's line manager, as an import's 'Email руководителя' column or the
 * directory's `manager` attribute names them (issue 32). It is a fact about the person, shown on
 * their cards; whose learning a manager follows stays their department (docs/decisions.md §People in
 * bulk). Users are never deleted, so the reference restricts.
 */
export function lineManagerMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('manager_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .execute();
    },
  };
}
