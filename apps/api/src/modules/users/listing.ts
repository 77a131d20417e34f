import type { AdminUserSort } from '@lms/contract';
import { sql, type Compilable, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DialectKind } from '../../db/dialect.js';
import { PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { shown, type UserRecord } from './repository.js';

export interface UserPageQuery {
  search?: string | undefined;
  sort?: AdminUserSort | undefined;
  direction?: 'asc' | 'desc' | undefined;
  limit: number;
  offset: number;
}

/**
 * How a search finds its users in `users.search_text` (migration 0021), where it is a substring of the
 * name in either order or of the address:
 * - `indexed`: the trigram index (SQLite's FTS5 table, PostgreSQL's `pg_trgm` GIN index) finds the
 *   users whose text holds the search's key (`Search.key`), and of those the text is checked to hold
 *   the whole search. PostgreSQL's planner may read the name index in order instead when a search
 *   matches many users. A search matching thousands is still found this way: reading the name index
 *   in order until a page is full took 60–260 ms at 100 000 users when the matches share a surname
 *   (they lie together in that order), against 7–10 ms through the index.
 * - `scanned`: the stored text of each live user is checked, without a per-row function: a search of
 *   one or two characters, which no trigram holds.
 */
export type SearchMode = 'all' | 'indexed' | 'scanned';

/** A LIKE pattern's wildcards taken literally (PostgreSQL's escape character is backslash). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The FTS5 query for the texts that hold `key` (three characters at least): its trigrams side by side,
 * and its last three characters for a remainder, all required, each a phrase in double quotes (its
 * double quotes doubled). A text holding the key holds them all; the text check does the rest. A few
 * non-overlapping terms cost a fifth of the phrase of every trigram (a first and last name at 100 000
 * users: 0.4 ms against 2.5 ms), whose common trigrams each read a long list.
 */
function trigramQuery(key: string): string {
  const chars = [...key];
  const pieces = new Set<string>();
  for (let at = 0; at + 3 <= chars.length; at += 3) pieces.add(chars.slice(at, at + 3).join(''));
  if (chars.length % 3 !== 0) pieces.add(chars.slice(-3).join(''));
  return [...pieces].map((piece) => `"${piece.replaceAll('"', '""')}"`).join(' AND ');
}

/** A search as its statements take it. */
export interface Search {
  mode: SearchMode;
  /** What the index is asked for (`indexed`): an FTS5 query on SQLite, a LIKE pattern on PostgreSQL. */
  key: string | null;
  /** The lower-cased search, which a user's stored text contains. */
  text: string | null;
}

/**
 * The search of a query (none when empty), lower-cased as the search always was (JavaScript's
 * toLowerCase; the stored text has the database's lower(), as the rows had before). `mode` forces a
 * way to find it.
 */
export function searchOf(kind: DialectKind, search: string | undefined, mode?: SearchMode): Search {
  if (!search) return { mode: 'all', key: null, text: null };
  const text = search.toLowerCase();
  // What follows '@' in an address is the same for the whole company: its trigrams are in every row
  // and narrow nothing (a whole address cost 22 ms at 100 000 users on PostgreSQL, its name 0.7 ms).
  // The index is asked for the name and the '@'; the text check keeps the rest.
  const at = text.indexOf('@');
  const key = at >= 2 ? text.slice(0, at + 1) : text;
  // A trigram index holds three characters.
  const chosen = mode ?? ([...text].length < 3 ? 'scanned' : 'indexed');
  const asked = kind === 'sqlite' ? trigramQuery(key) : `%${escapeLike(key)}%`;
  return { mode: chosen, key: chosen === 'indexed' ? asked : null, text };
}

/** What a page's statement depends on besides its values: one prepared statement per shape. */
export interface PageShape {
  kind: DialectKind;
  mode: SearchMode;
  sort: AdminUserSort;
  direction: 'asc' | 'desc';
}

// Types, not interfaces: prepared.ts binds records of named values.
type SearchSlots = {
  key: string | null;
  text: string | null;
};
type PageSlots = SearchSlots & {
  limit: number;
  offset: number;
};

/** The values a statement of a search binds, by how it finds its users. */
const SEARCH_SLOTS = { all: [], scanned: ['text'], indexed: ['key', 'text'] } as const;

/** Live users whose stored text contains the search. */
function matching<QB extends SelectQueryBuilder<Database, 'users', object>>(
  shape: Pick<PageShape, 'kind' | 'mode'>,
  search: SearchSlots,
  qb: QB,
): QB {
  const live = qb.where('users.deleted_at', 'is', null) as QB;
  if (shape.mode === 'all') return live;
  const sqlite = shape.kind === 'sqlite';
  const contains = sqlite
    ? sql<boolean>`instr(users.search_text, ${search.text}) > 0`
    : sql<boolean>`strpos(users.search_text, ${search.text}) > 0`;
  if (shape.mode === 'scanned') return live.where(contains) as QB;
  const found = sqlite
    ? sql<boolean>`users.id in (select rowid from users_search where users_search match ${search.key})`
    : sql<boolean>`users.search_text like ${search.key}`;
  return live.where(found).where(contains) as QB;
}

/**
 * The order of the paged list; it ends with the id, so it is total and consecutive pages neither
 * overlap nor skip (while nothing changes in between). Sorted by department or role, `qb` must
 * join `departments` and `roles`.
 */
function ordered<QB extends SelectQueryBuilder<Database, 'users', object>>(
  shape: Pick<PageShape, 'sort' | 'direction'>,
  qb: QB,
): QB {
  const dir = shape.direction;
  const keys: [RawBuilder<unknown>, 'asc' | 'desc'][] = [];
  switch (shape.sort) {
    case 'email':
      keys.push([sql`users.email`, dir]);
      break;
    case 'department':
      // Users without a department last, whatever the direction (the same on both databases).
      keys.push([sql`departments.name is null`, 'asc'], [sql`departments.name`, dir]);
      break;
    case 'role':
      keys.push([sql`roles.name`, dir]);
      break;
    case 'last_activity':
      keys.push([sql`users.last_activity_at is null`, 'asc'], [sql`users.last_activity_at`, dir]);
      break;
    case 'name':
      break;
  }
  keys.push([sql`users.last_name`, dir], [sql`users.first_name`, dir], [sql`users.id`, dir]);
  let out = qb;
  for (const [key, direction] of keys) out = out.orderBy(key, direction) as QB;
  return out;
}

/** A page's row, with the number of all the search's matches when the statement counts them. */
export type PageRow = UserRecord & { total?: number | string };

/**
 * The live users a page is chosen from. With a search, on PostgreSQL, they are found apart from the
 * order (a subquery with an offset is planned on its own): otherwise the planner reads the name index
 * in order and checks every user's text until the page is full, which at 100 000 users took 100 ms
 * for a surname late in the alphabet (its matches lie together at the end of that order), against
 * 7–10 ms through the trigram index and a sort of its matches.
 */
function candidates(db: Kysely<Database>, shape: PageShape, slots: PageSlots) {
  const live = matching(shape, slots, db.selectFrom('users'));
  if (shape.kind !== 'postgres' || shape.mode === 'all') return live;
  const found = db.selectFrom(live.selectAll('users').offset(0).as('users'));
  // The same columns under the same name: what the rest of the statement reads of `users`.
  return found as unknown as typeof live;
}

/**
 * One page: the page's ids are chosen first, over the users and what the order needs only; the rows
 * shown are then read for those ids alone: an offset skips index entries, not joined rows (page 20 of
 * 50 read and joined 1 000 rows to keep 50). A search's page also counts all its matches (a window over
 * the matches the page is chosen from), so that they are found once, not once more for the total.
 */
function pageQuery(db: Kysely<Database>, shape: PageShape, slots: PageSlots) {
  const live = candidates(db, shape, slots);
  // Sorted by a department's or a role's name, every user is joined to it to be sorted anyway.
  const sortedByJoin = shape.sort === 'department' || shape.sort === 'role';
  const chosen = sortedByJoin
    ? ordered(
        shape,
        live
          .innerJoin('roles', 'roles.id', 'users.role_id')
          .leftJoin('departments', 'departments.id', 'users.department_id')
          .select('users.id as page_id'),
      )
    : ordered(shape, live.select('users.id as page_id'));
  const counted = shape.mode === 'all' ? chosen : chosen.select(sql<number | string>`count(*) over ()`.as('total'));
  const ids = counted.limit(slots.limit).offset(slots.offset).as('p');
  // The page's ids are the outer loop (SQLite keeps the left side of a cross join outside): read by
  // order, the users index would be scanned again to spare sorting fifty rows.
  const page = db.selectFrom(ids).crossJoin('users').whereRef('users.id', '=', 'p.page_id');
  const rows = shown(page);
  return ordered(shape, shape.mode === 'all' ? rows : rows.select(sql<number | string>`p.total`.as('total')));
}

const countQuery = (db: Kysely<Database>, shape: Pick<PageShape, 'kind' | 'mode'>, search: SearchSlots) =>
  matching(shape, search, db.selectFrom('users')).select((eb) => eb.fn.countAll<number | string>().as('n'));

/** Without a search every live user counts: the triggers of migration 0011 keep that number. */
const liveUsers = new PreparedQuery([], (db) =>
  db.selectFrom('counters').select('value as n').where('name', '=', 'live_users'),
);

/** Statements by shape (prepared.ts: built and compiled once, then bound). */
const pageQueries = new Map<string, PreparedQuery<PageSlots, PageRow>>();
const countQueries = new Map<string, PreparedQuery<SearchSlots, { n: number | string }>>();

/** The page statement of a shape; exported for the test of its query plan. */
export function pageStatement(shape: PageShape): PreparedQuery<PageSlots, PageRow> {
  const key = JSON.stringify(shape);
  let prepared = pageQueries.get(key);
  if (!prepared) {
    const slots = [...SEARCH_SLOTS[shape.mode], 'limit', 'offset'] as const;
    prepared = new PreparedQuery(slots, (db, p: PageSlots) => pageQuery(db, shape, p) as Compilable<PageRow>);
    pageQueries.set(key, prepared);
  }
  return prepared;
}

/** The count statement of a search; exported for the test of its query plan. */
export function countStatement(shape: Pick<PageShape, 'kind' | 'mode'>) {
  const key = `${shape.kind}:${shape.mode}`;
  let prepared = countQueries.get(key);
  if (!prepared) {
    prepared = new PreparedQuery(SEARCH_SLOTS[shape.mode], (db, p: SearchSlots) => countQuery(db, shape, p));
    countQueries.set(key, prepared);
  }
  return prepared;
}

/** The employees list (issue 14): live users searched, sorted and cut into pages, read afresh each time. */
export class UserListing {
  constructor(private readonly uow: UnitOfWork) {}

  /** One page of live users matching a search (name or email, case-insensitive substring), and their count. */
  async page(query: UserPageQuery): Promise<{ rows: UserRecord[]; total: number }> {
    const { kind, db } = this.uow;
    const search = searchOf(kind, query.search);
    if (search.mode === 'all') {
      const total = Number((await liveUsers.executeTakeFirst(db, {}))?.n ?? 0);
      // Past the last user there is nothing to read.
      if (query.offset >= total) return { rows: [], total };
      return { rows: await this.rows(query, search), total };
    }
    // A search's page carries the count of its matches; a page past the last has no row to carry it.
    const rows = await this.rows(query, search);
    const first = rows[0];
    if (first) return { rows, total: Number(first.total ?? 0) };
    if (query.offset === 0) return { rows, total: 0 };
    const counted = await countStatement({ kind, mode: search.mode }).executeTakeFirst(db, search);
    return { rows, total: Number(counted?.n ?? 0) };
  }

  /** The rows of `page` without the count (the export reads every page of a search this way). */
  pageRows(query: UserPageQuery): Promise<UserRecord[]> {
    return this.rows(query, searchOf(this.uow.kind, query.search));
  }

  private rows(query: UserPageQuery, search: Search): Promise<PageRow[]> {
    const { kind, db } = this.uow;
    const shape: PageShape = {
      kind,
      mode: search.mode,
      sort: query.sort ?? 'name',
      direction: query.direction === 'desc' ? 'desc' : 'asc',
    };
    const { key, text } = search;
    return pageStatement(shape).execute(db, { key, text, limit: query.limit, offset: query.offset });
  }
}
