import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The versions a request's kept answers depend on, read by the session lookup of the routes that keep
 * answers (route config `readsVersions`, platform/sessions.ts) before the request reads anything else: an answer kept for older versions
 * is never used, and one made after them may only be newer than its versions say.
 *
 * - `viewer`: the signed-in user's own rows (enrollments, learning states, lesson records; migration 0015).
 * - `cards`: what course and lesson cards show outside any viewer (migrations 0013 and 0015).
 * - `users`: what the employees list shows, last activity aside (migration 0016).
 */
export interface ReadVersions {
  viewer: number;
  cards: number;
  users: number;
}

/** The versions as columns of a query that has `users` (the signed-in user) in scope. */
export function versionColumns(eb: ExpressionBuilder<Database, 'users'>) {
  return [
    eb
      .selectFrom('viewer_changes')
      // A sum, which PostgreSQL answers as numeric text: read with `versionsOf`.
      .select(sql<number | string | null>`sum(viewer_changes.weight)`.as('v'))
      .whereRef('viewer_changes.user_id', '=', 'users.id')
      .as('viewer_version'),
    counter(eb, 'course_cards_version').as('cards_version'),
    counter(eb, 'users_list_version').as('users_version'),
  ] as const;
}

function counter(eb: ExpressionBuilder<Database, 'users'>, name: string) {
  return eb.selectFrom('counters').select('counters.value').where('counters.name', '=', name);
}

type Version = number | string | null;

export function versionsOf(row: {
  viewer_version: Version;
  cards_version: Version;
  users_version: Version;
}): ReadVersions {
  return {
    viewer: Number(row.viewer_version ?? 0),
    cards: Number(row.cards_version ?? 0),
    users: Number(row.users_version ?? 0),
  };
}

/** Learners whose versions are folded per pass, and the rows a learner may have before being folded. */
const COMPACT_USERS = 2_000;
const COMPACT_ABOVE = 8;

/**
 * Folds each learner's appended version rows into one of the same sum (PostgreSQL; on SQLite a learner
 * has one row). One statement per pass keeps each sum: a concurrent append adds to it either way, and a
 * concurrent pass skips the rows this one has moved. Returns how many learners were folded.
 */
export async function compactViewerChanges(db: Kysely<Database>, kind: 'sqlite' | 'postgres'): Promise<number> {
  if (kind === 'sqlite') return 0;
  const folded = await sql<{ n: string | number }>`
    with many as (
      select user_id from viewer_changes group by user_id having count(*) > ${COMPACT_ABOVE} limit ${COMPACT_USERS}
    ),
    moved as (
      delete from viewer_changes where user_id in (select user_id from many) returning user_id, weight
    ),
    put as (
      insert into viewer_changes (user_id, weight) select user_id, sum(weight) from moved group by user_id
      returning user_id
    )
    select count(*) as n from put`.execute(db);
  return Number(folded.rows[0]?.n ?? 0);
}
