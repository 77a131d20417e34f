import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Soft deletion of the course content (docs/rules.md §Deletion): categories, courses, modules,
 * lessons, tests and questions are never removed, they are marked deleted (`deleted_at`) and vanish
 * from every screen, while learners' records keep pointing at them. The courses module owns these
 * tables; a query elsewhere that reads them says "live" or "published" through the fragments below,
 * written against its own aliases, so that the rule has one definition.
 *
 * Each fragment is a boolean SQL expression: it goes into a query builder's `where` or a join's `on`
 * (`.where(liveCourse('c'))`) as well as into raw SQL (`` sql`… and ${liveCourse('c')}` ``).
 */

const live = (alias: string): RawBuilder<SqlBool> => sql<SqlBool>`${sql.ref(`${alias}.deleted_at`)} is null`;

/** The course row under `alias` is live (not deleted). */
export const liveCourse = (alias: string): RawBuilder<SqlBool> => live(alias);

/** The category row under `alias` is live. */
export const liveCategory = (alias: string): RawBuilder<SqlBool> => live(alias);

/** The question row under `alias` is live (a deleted question leaves its test, its answers stay). */
export const liveQuestion = (alias: string): RawBuilder<SqlBool> => live(alias);

/**
 * The lesson or test under `item`, in the module under `module`, is one a learner may reach: the item
 * is published and neither it nor its module is deleted. (Its course's own state, deleted or not
 * published, is the course's rule: `liveCourse` and the engine's visibility.)
 */
export const publishedLiveItem = (item: string, module: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(`${item}.is_published`)} = ${sql.lit(true)} and ${live(item)} and ${live(module)})`;

/**
 * The course id under `ref` names no deleted course. For queries over rows that carry a course id
 * (learning states, kept rankings) and need no other column of the course: the deleted courses are
 * few, so the database reads them once instead of joining every row to its course.
 */
export const ofLiveCourse = (ref: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(ref)} not in (select id from courses where deleted_at is not null)`;
