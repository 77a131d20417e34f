import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/**
 * A start draws its questions from the test's live questions and their options. A process keeps
 * those rows per test (courses/tests.ts) and uses them while `tests.content_version` holds: the
 * version is raised by triggers on `test_questions` and `test_answers`, in the writer's own
 * transaction, so that every writer (the constructor, a seeder, another server process) makes the
 * kept rows stale, and a rollback does not.
 */
export function testContentVersionMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('tests')
        .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const raise = (testId: string) => `update tests set content_version = content_version + 1 where id = ${testId}`;
      const ofQuestion = (questionId: string) => raise(`(select test_id from test_questions where id = ${questionId})`);
      if (kind === 'sqlite') {
        // One writer at a time: raising it with each row locks nothing another writer waits for.
        for (const [op, row] of [
          ['insert', 'new'],
          ['update', 'new'],
          ['delete', 'old'],
        ] as const) {
          await sql`create trigger ${sql.raw(`test_questions_content_${op}`)} after ${sql.raw(op)} on test_questions
            begin ${sql.raw(raise(`${row}.test_id`))}; end`.execute(db);
          await sql`create trigger ${sql.raw(`test_answers_content_${op}`)} after ${sql.raw(op)} on test_answers
            begin ${sql.raw(ofQuestion(`${row}.question_id`))}; end`.execute(db);
        }
        // A row moved to another question or test leaves both stale.
        await sql`create trigger test_questions_content_moved after update of test_id on test_questions
          begin ${sql.raw(raise('old.test_id'))}; end`.execute(db);
        await sql`create trigger test_answers_content_moved after update of question_id on test_answers
          begin ${sql.raw(ofQuestion('old.question_id'))}; end`.execute(db);
        return;
      }
      // At commit: the test's row is locked only while its writer commits, after every other lock the
      // writer takes. Raised in the middle of a transaction, two editors of one test's questions could
      // deadlock (each holding a question row and waiting for the test's row the other holds).
      await sql`create function test_questions_content() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then ${sql.raw(raise('old.test_id'))}; end if;
          if tg_op <> 'DELETE' then ${sql.raw(raise('new.test_id'))}; end if;
          return null;
        end $$`.execute(db);
      await sql`create function test_answers_content() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then ${sql.raw(ofQuestion('old.question_id'))}; end if;
          if tg_op <> 'DELETE' then ${sql.raw(ofQuestion('new.question_id'))}; end if;
          return null;
        end $$`.execute(db);
      await sql`create function test_contents_truncated() returns trigger language plpgsql as $$
        begin
          update tests set content_version = content_version + 1;
          return null;
        end $$`.execute(db);
      for (const table of ['test_questions', 'test_answers']) {
        await sql`create constraint trigger ${sql.raw(`${table}_content`)}
          after insert or update or delete on ${sql.table(table)} deferrable initially deferred
          for each row execute function ${sql.raw(`${table}_content`)}()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_content_truncate`)} after truncate on ${sql.table(table)}
          for each statement execute function test_contents_truncated()`.execute(db);
      }
    },
  };
}
