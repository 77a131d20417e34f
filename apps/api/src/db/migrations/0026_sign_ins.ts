import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/**
 * Sign-in (issue 33):
 * - `sign_ins`: the journal of every sign-in, successful or not: when, who (if the login named
 *   someone), the login, how (platform password, directory password, identity provider), why it
 *   failed, from which address and browser. Rows are only added (and pruned after a year).
 * - `company_settings`: the admin's settings of the company, one row per key (first: 'sso_only').
 * - `users.origin`: how the account came to be — 'manual' (the employees tab), 'import', 'directory',
 *   'sso' (created at the first sign-in through the provider). 'Только вход через SSO' keeps the
 *   platform's password for manual accounts only. Existing rows are classified from what is known.
 * - `sessions.method`: how the session was made ('password', 'ldap', 'oidc'): a password an
 *   administrator mailed must be replaced only by who signs in with it.
 */
export function signInsMigration(kind: DialectKind) {
  const t = columnTypes(kind);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sign_ins')
        .addColumn('id', 'integer', t.id)
        .addColumn('at', t.time, (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('success', t.bool, (c) => c.notNull())
        .addColumn('failure', 'text')
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .execute();
      // The journal's page: newest first.
      await db.schema.createIndex('sign_ins_at_idx').on('sign_ins').columns(['at desc', 'id desc']).execute();
      await db.schema
        .createTable('company_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('restrict'))
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('origin', 'text', (c) => c.notNull().defaultTo('manual'))
        .execute();
      await sql`update users set origin = 'directory' where directory_id is not null`.execute(db);
      await sql`update users set origin = 'import' where directory_id is null and id in
        (select subject_id from people_changes
          where subject = 'user' and action = 'user_created' and source = 'import')`.execute(db);
    },
  };
}
