import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/**
 * Triggers that raise a counter of `counters` when rows of `table` are inserted or deleted, or have
 * one of `columns` updated (migrations 0015 and 0016; 0013 and 0014 stay as they were written). The
 * triggers of a version a process keeps a value by are made from db/kept.ts (`createVersionTriggers`).
 * - SQLite (one writer at a time): the counter is raised in place by each statement, `bump`.
 * - PostgreSQL: `pgFunction` (a trigger function raising it once per transaction) runs at commit, as
 *   deferred constraint triggers, and after a truncate.
 */
export async function counterTriggers(
  db: Kysely<unknown>,
  kind: DialectKind,
  spec: { name: string; table: string; columns: readonly string[]; bump: string; pgFunction: string },
): Promise<void> {
  const { name, table, columns } = spec;
  const on = sql.table(table);
  const updateOf = sql.raw(columns.join(', '));
  if (kind === 'sqlite') {
    const bump = sql.raw(spec.bump);
    await sql`create trigger ${sql.raw(`${table}_${name}_insert`)} after insert on ${on}
      begin ${bump}; end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_${name}_update`)} after update of ${updateOf} on ${on}
      begin ${bump}; end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_${name}_delete`)} after delete on ${on}
      begin ${bump}; end`.execute(db);
    return;
  }
  const fn = sql.raw(spec.pgFunction);
  await sql`create constraint trigger ${sql.raw(`${table}_${name}`)}
    after insert or update of ${updateOf} or delete on ${on}
    deferrable initially deferred for each row execute function ${fn}()`.execute(db);
  await sql`create trigger ${sql.raw(`${table}_${name}_truncate`)} after truncate on ${on}
    for each statement execute function ${fn}()`.execute(db);
}
