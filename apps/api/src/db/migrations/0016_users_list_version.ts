import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';
import { counterTriggers } from './counterTriggers.js';

/**
 * What a row of the employees list shows or is sorted and searched by, but last activity (written
 * once a minute per active session, and read afresh for every page: users/pages.ts).
 */
const LISTED_COLUMNS = {
  users: ['first_name', 'last_name', 'email', 'position', 'department_id', 'role_id', 'deleted_at'],
  departments: ['name'],
  roles: ['name'],
} as const;

/**
 * A page of the employees list is the same, last activity aside, for as long as
 * `counters.users_list_version` holds (issue 14 item 6). It is raised by triggers on every table the
 * rows come from, in the writer's own transaction, as 0013 raises the course cards version.
 *
 * On PostgreSQL it is raised at commit, once per transaction, as 0013's. A transaction may raise both
 * counters (a user deleted or moved: the user's row, then their courses' learner counts), each at its
 * commit in the order its rows were written, so two such commits could each hold one counter and wait
 * for the other. This one therefore locks both rows in their names' order before raising its own: every
 * commit that holds this counter took the other first.
 */
export function usersListVersionMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`insert into counters (name, value) values ('users_list_version', 1)`.execute(db);
      const raise = `update counters set value = value + 1 where name = 'users_list_version'`;
      const triggers = async () => {
        for (const [table, columns] of Object.entries(LISTED_COLUMNS))
          await counterTriggers(db, kind, {
            name: 'list_version',
            table,
            columns,
            bump: raise,
            pgFunction: 'users_list_version',
          });
      };
      if (kind === 'sqlite') return triggers();
      await sql`create function users_list_version() returns trigger language plpgsql
        set search_path from current as $$
        begin
          if current_setting('lms.users_list_raised', true) is distinct from txid_current()::text then
            perform set_config('lms.users_list_raised', txid_current()::text, true);
            perform 1 from counters where name in ('course_cards_version', 'users_list_version')
              order by name for update;
            ${sql.raw(raise)};
          end if;
          return null;
        end $$`.execute(db);
      await triggers();
    },
  };
}
