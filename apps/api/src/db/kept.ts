import { sql, type Kysely } from 'kysely';
import type { DialectKind } from './dialect.js';
import type { Database } from './schema.js';

/**
 * Every value a process keeps between requests, in one place (docs/decisions.md §Caches). Pages read
 * their rows afresh; what is listed here is kept because a workload missed its bound without it.
 *
 * Each value says how it stops holding:
 * - `version`: a counter of `counters` that triggers raise in the writer's own transaction whenever a
 *   column the value reads is written (`createVersionTriggers`); the value is kept only from committed
 *   reads and used only while the version read with it holds. `reads` names every table and column
 *   its cached query reads, and nothing else: a write of any other column leaves the value kept.
 * - `never changes once written`: rows the application writes once and never updates (`reads` says
 *   which columns are meant; its owner keeps nothing else of them).
 * - `schema only`: compiled statements, which change only with the code and the schema.
 * - `pure function of its key`: the same key always gives the same value.
 *
 * The maintained tables (enrollments, learning states, course statistics, kept rankings) are no copy
 * a process keeps: they are written in the writer's transaction by their owners (docs/architecture.md).
 *
 * Checked by tests: kept.test.ts compiles each `version` value's cached query and fails on a column
 * `reads` does not name (or names but is not read), and fails when the database's triggers are not the
 * ones this list makes; keptTriggers.test.ts writes each column. So changing what a `version` value
 * reads is: edit its query and `reads` here, and add a migration that calls `dropVersionTriggers` with
 * the list as it was and `createVersionTriggers` with the new one (0022 made the first ones). The
 * attempt facts' type is made from their `reads` (attempts/repository.ts `AttemptFacts`).
 */
export type Reads = { readonly [T in keyof Database]?: readonly (keyof Database[T] & string)[] };

/** A counter of `counters` that triggers raise, with what raises it. */
export interface Version {
  readonly counter: `${string}_version`;
  readonly reads: Reads;
}

export interface KeptValue {
  /** The file that keeps it (under apps/api/src). */
  readonly owner: string;
  readonly what: string;
  /** How many are kept at most. */
  readonly bound: string;
  readonly dropped:
    | { readonly version: Version }
    | { readonly never: 'changes once written'; readonly reads: Reads }
    | 'schema only'
    | 'pure function of its key';
}

export const KEPT = {
  askable: {
    owner: 'modules/courses/tests.ts',
    what: "a test's askable questions (live, with options) and their options, read by every start",
    bound: '200 tests',
    dropped: {
      version: {
        counter: 'test_contents_version',
        reads: {
          test_questions: ['id', 'test_id', 'title', 'type', 'question_text', 'sort_order', 'deleted_at'],
          test_answers: ['id', 'question_id', 'answer_text', 'is_correct', 'image_path', 'sort_order'],
        },
      },
    },
  },
  courseList: {
    owner: 'modules/progress/courseList.ts',
    what: 'every live course with its category, kept totals and group count: the half of the home page, the catalogue and a course summary that is the same for every viewer',
    bound: 'one list (the live courses)',
    dropped: {
      version: {
        counter: 'course_list_version',
        reads: {
          courses: [
            'id',
            'title',
            'description',
            'image_path',
            'category_id',
            'is_published',
            'accessibility',
            'has_deadline',
            'deadline_type',
            'deadline_value',
            'deadline_warning_days',
            'has_recurrence',
            'recurrence_value',
            'sort_order',
            'deleted_at',
          ],
          course_categories: ['id', 'name', 'sort_order', 'deleted_at'],
          course_stats: ['course_id', 'learners', 'lessons_total', 'tests_total'],
          group_courses: ['course_id'],
        },
      },
    },
  },
  attemptFacts: {
    owner: 'modules/attempts/repository.ts',
    what: "an attempt's owner, test, number, start, expiry and parsed snapshot, read by every answer",
    bound: '1 000 attempts',
    dropped: {
      never: 'changes once written',
      reads: { test_attempts: ['id', 'user_id', 'test_id', 'attempt_number', 'started_at', 'expires_at', 'snapshot'] },
    },
  },
  sqliteStatements: {
    owner: 'db/statementCache.ts',
    what: 'SQLite prepared statements with their row builders, by SQL text (emptied by a schema change)',
    bound: '1 000 statements',
    dropped: 'schema only',
  },
  compiledQueries: {
    owner: 'db/prepared.ts',
    what: 'queries built and compiled once per dialect (`PreparedQuery`), and the shapes of the employees list (modules/users/listing.ts)',
    bound: 'one per query in the code; one per list shape',
    dropped: 'schema only',
  },
  statementNames: {
    owner: 'db/connect.ts',
    what: "PostgreSQL statement names by SQL text (the plans are PostgreSQL's, per connection, re-planned after a schema change)",
    bound: '2 000 names; 300 named statements per connection',
    dropped: 'pure function of its key',
  },
  peopleDays: {
    owner: 'platform/peopleTime.ts',
    what: "dd.mm.yyyy of a stored time in the company's zone, by the stored text; Intl formatters by zone",
    bound: '10 000 days',
    dropped: 'pure function of its key',
  },
  timingHash: {
    owner: 'platform/passwords.ts',
    what: 'the hash an unknown login is checked against, so that it costs what a wrong password costs',
    bound: 'one',
    dropped: 'pure function of its key',
  },
} as const satisfies Record<string, KeptValue>;

/** The kept values that a version drops, with their names. */
export function versionedValues(): { name: string; version: Version }[] {
  return Object.entries(KEPT as Record<string, KeptValue>).flatMap(([name, v]) =>
    typeof v.dropped === 'object' && 'version' in v.dropped ? [{ name, version: v.dropped.version }] : [],
  );
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain identifier: ${name}`);
  return name;
}

/** The tables of a version with their columns, sorted, so that the triggers do not depend on the list's order. */
function tablesOf(version: Version): [string, string[]][] {
  return Object.entries(version.reads)
    .map(([table, columns]): [string, string[]] => [identifier(table), [...(columns ?? [])].map(identifier).sort()])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const triggerName = (table: string, version: Version, op: string) => `${table}_${identifier(version.counter)}${op}`;
const TRIGGER_OPS = { sqlite: ['_insert', '_update', '_delete'], postgres: ['', '_truncate'] } as const;

/** The names `createVersionTriggers` gives: `<table>_<counter>_<op>` (SQLite), `<table>_<counter>[_truncate]`. */
export function versionTriggerNames(kind: DialectKind, version: Version): { table: string; name: string }[] {
  return tablesOf(version).flatMap(([table]) =>
    TRIGGER_OPS[kind].map((op) => ({ table, name: triggerName(table, version, op) })),
  );
}

/**
 * Triggers that raise `version.counter` when a row of a table it reads is inserted or deleted, or one
 * of the columns it reads is updated, in the writer's own transaction, so that every writer (a
 * service, a seeder, another process, `psql`) makes the kept value stale and a rollback does not.
 * - SQLite (one writer at a time): raised in place by each statement.
 * - PostgreSQL: raised at commit, once per transaction, by deferred constraint triggers (and after a
 *   truncate), so the counter's row is the last lock a writer takes; the function is pinned to the
 *   schema it is created in, so a writer with another search_path neither fails nor raises another
 *   schema's counter (as 0014's).
 *
 * Migrations call it: for a given list it must always write the same triggers.
 */
export async function createVersionTriggers(db: Kysely<unknown>, kind: DialectKind, version: Version): Promise<void> {
  const counter = identifier(version.counter);
  await sql`insert into counters (name, value) values (${counter}, 1) on conflict (name) do nothing`.execute(db);
  const raise = sql.raw(`update counters set value = value + 1 where name = '${counter}'`);
  const name = (table: string, op: string) => sql.raw(triggerName(table, version, op));
  if (kind === 'postgres') {
    const raised = sql.lit(`lms.${counter}_raised`);
    await sql`create function ${sql.raw(counter)}() returns trigger language plpgsql
      set search_path from current as $$
      begin
        if current_setting(${raised}, true) is distinct from txid_current()::text then
          perform set_config(${raised}, txid_current()::text, true);
          ${raise};
        end if;
        return null;
      end $$`.execute(db);
  }
  for (const [table, columns] of tablesOf(version)) {
    const on = sql.raw(table);
    const updateOf = sql.raw(columns.join(', '));
    if (kind === 'sqlite') {
      await sql`create trigger ${name(table, '_insert')} after insert on ${on} begin ${raise}; end`.execute(db);
      await sql`create trigger ${name(table, '_update')} after update of ${updateOf} on ${on} begin ${raise}; end`.execute(
        db,
      );
      await sql`create trigger ${name(table, '_delete')} after delete on ${on} begin ${raise}; end`.execute(db);
      continue;
    }
    const fn = sql.raw(counter);
    await sql`create constraint trigger ${name(table, '')} after insert or update of ${updateOf} or delete on ${on}
      deferrable initially deferred for each row execute function ${fn}()`.execute(db);
    await sql`create trigger ${name(table, '_truncate')} after truncate on ${on}
      for each statement execute function ${fn}()`.execute(db);
  }
}

/** Drops what `createVersionTriggers` made for this list; the counter's row stays. */
export async function dropVersionTriggers(db: Kysely<unknown>, kind: DialectKind, version: Version): Promise<void> {
  for (const { table, name } of versionTriggerNames(kind, version))
    await (
      kind === 'sqlite' ? sql`drop trigger ${sql.raw(name)}` : sql`drop trigger ${sql.raw(name)} on ${sql.raw(table)}`
    ).execute(db);
  if (kind === 'postgres') await sql`drop function ${sql.raw(identifier(version.counter))}()`.execute(db);
}
