import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { DAY } from '../platform/clock.js';

/** Times of the demo, relative to the clock: the content gives them as "days ago" (fractions allowed). */
export interface DemoTimes {
  /** The ISO time `days` before now. */
  ago(days: number): string;
  /** The ISO time `ms` after `at`. */
  after(at: string, ms: number): string;
}

export function demoTimes(nowMs: number): DemoTimes {
  return {
    ago: (days) => new Date(nowMs - Math.round(days * DAY)).toISOString(),
    after: (at, ms) => new Date(new Date(at).getTime() + ms).toISOString(),
  };
}

/** The value of a demo key; a key the content does not define is a mistake in the content. */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Демо-данные: не найдено «${what}»`);
  return value;
}

/**
 * The id of the department or category of this name, added when there is none: the demo reuses
 * what the company already has. Category names are unique whatever their case (the catalogue's
 * rule); a department's name is compared as it is.
 */
export function namedRowId(
  trx: Transaction<Database>,
  table: 'departments',
  row: { name: string; sortOrder: number | null },
  stamp: string,
): Promise<number>;
export function namedRowId(
  trx: Transaction<Database>,
  table: 'course_categories',
  row: { name: string; sortOrder: number },
  stamp: string,
): Promise<number>;
export async function namedRowId(
  trx: Transaction<Database>,
  table: 'departments' | 'course_categories',
  row: { name: string; sortOrder: number | null },
  stamp: string,
): Promise<number> {
  const [column, value] =
    table === 'course_categories' ? [sql<string>`lower(name)`, row.name.toLowerCase()] : [sql<string>`name`, row.name];
  const existing = await trx.selectFrom(table).select('id').where(column, '=', value).executeTakeFirst();
  if (existing) return existing.id;
  const added = await trx
    .insertInto(table)
    .values({ name: row.name, sort_order: row.sortOrder, created_at: stamp, updated_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return added.id;
}
