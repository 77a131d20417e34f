import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Who may refresh learning states at the same time (PostgreSQL; SQLite runs one transaction at a
 * time). A refresh reads the records and the course's items and rules, then writes rows computed from
 * them; two refreshes that overlap must not both read before either writes, or the later write keeps a
 * row made without the other's change (and the earlier one's update may find its row gone). So, held
 * until the transaction ends and always taken before the refresh reads anything:
 *
 * - a refresh of one pair (every learner event) takes its course's lock shared and the pair's lock
 *   exclusive: events of different learners in one course still run together;
 * - a refresh of several pairs (an author's change of the course, enrollment changes, the periodic
 *   pass) takes each of its courses' locks exclusive, in course id order.
 *
 * A holder of a course's exclusive lock takes no pair lock and a pair's refresher no exclusive lock,
 * and a unit takes the exclusive locks of all its courses in one call (or in increasing order): no
 * two transactions can wait for each other on these locks.
 */

/** The first key of a course's lock: no user has id 0, so a course's lock never names a pair. */
const COURSE_KEY = 0;

const onPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The pair's refresh: its course shared, then the pair itself (one round trip). */
export async function holdPair(db: Kysely<Database>, userId: number, courseId: number): Promise<void> {
  if (!onPostgres(db)) return;
  await sql`select pg_advisory_xact_lock_shared(${COURSE_KEY}::int4, ${courseId}::int4),
    pg_advisory_xact_lock(${userId}::int4, ${courseId}::int4)`.execute(db);
}

/** A refresh of several pairs: each course exclusive, in id order (one round trip; a held lock is taken again at once). */
export async function holdCourses(db: Kysely<Database>, courseIds: readonly number[]): Promise<void> {
  if (courseIds.length === 0 || !onPostgres(db)) return;
  const ordered = [...new Set(courseIds)].sort((a, b) => a - b);
  await sql`select pg_advisory_xact_lock(${COURSE_KEY}::int4, c.id)
    from unnest(${ordered}::int4[]) with ordinality as c(id, n) order by c.n`.execute(db);
}
