import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, dialectName } from '../../test/harness.js';
import { migrateTo } from '../migrate.js';
import type { Database } from '../schema.js';

const counter = async (k: Kysely<Database>, name: string) =>
  (await k.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirst())?.value;

describe(`migration 0021 (${dialectName})`, () => {
  it("drops the employees list's version and indexes the users already there", async () => {
    const { db, drop } = await createTestDb();
    try {
      const k = db.kysely;
      await migrateTo(k, db.kind, '0020_drop_viewer_versions', db.schema);
      const role = await k.selectFrom('roles').select('id').where('code', '=', 'learner').executeTakeFirstOrThrow();
      const dep = await k.insertInto('departments').values({ name: 'Склад' }).returning('id').executeTakeFirstOrThrow();
      const user = await k
        .insertInto('users')
        .values({
          first_name: 'Семён',
          last_name: 'Королёв',
          email: 'Semen@Example.com',
          password_hash: 'h',
          role_id: role.id,
          department_id: dep.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const course = await k.insertInto('courses').values({ title: 'К' }).returning('id').executeTakeFirstOrThrow();
      expect(await counter(k, 'users_list_version')).toBeGreaterThan(0);

      expect(await migrateTo(k, db.kind, '0021_users_search', db.schema)).toEqual(['0021_users_search']);

      expect(await counter(k, 'users_list_version')).toBeUndefined();
      const left =
        db.kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master
              where type = 'trigger' and name like '%list_version%'`.execute(k)
          : await sql<{ name: string }>`select tgname as name from pg_trigger t
              join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = current_schema() and tgname like '%list_version%'
              union all select proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              where n.nspname = current_schema() and proname = 'users_list_version'`.execute(k);
      expect(left.rows).toEqual([]);

      // Every table the list read is written as before (a trigger left behind would fail at commit).
      await k.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ first_name: 'Пётр' }).where('id', '=', user.id).execute();
        await trx.updateTable('departments').set({ name: 'Архив' }).execute();
        await trx.updateTable('roles').set({ name: 'Слушатель' }).where('id', '=', role.id).execute();
        await trx.updateTable('courses').set({ title: 'Курс' }).where('id', '=', course.id).execute();
      });

      // The user written before 0021 and renamed after it is found by the stored text.
      const stored = await k.selectFrom('users').select('search_text').where('id', '=', user.id).executeTakeFirst();
      expect(stored?.search_text).toBe('пётр королёв\nкоролёв пётр\nsemen@example.com');
      if (db.kind === 'sqlite') {
        const found = await sql<{ rowid: number }>`select rowid from users_search
          where users_search match ${'"ёв пё"'}`.execute(k);
        expect(found.rows).toEqual([{ rowid: user.id }]);
        const integrity = sql`insert into users_search (users_search, rank) values ('integrity-check', 1)`;
        await integrity.execute(k);
      }
    } finally {
      await drop();
    }
  });
});
