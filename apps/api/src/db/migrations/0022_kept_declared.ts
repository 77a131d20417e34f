import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';
import { createVersionTriggers, type Version } from '../kept.js';

/**
 * What the askable rows read when this migration was written (db/kept.ts `KEPT.askable`), copied
 * rather than imported: a migration stays what it was whatever the list says later. A later change of
 * the list comes with a migration of its own (kept.test.ts asks for it).
 */
const ASKABLE: Version = {
  counter: 'test_contents_version',
  reads: {
    test_questions: ['id', 'test_id', 'title', 'type', 'question_text', 'sort_order', 'deleted_at'],
    test_answers: ['id', 'question_id', 'answer_text', 'is_correct', 'image_path', 'sort_order'],
  },
};

/**
 * Issue 31: what a process keeps is declared in one place (db/kept.ts), and the triggers of a version
 * are made from that declaration. 0014 raised `test_contents_version` on any write of the questions
 * and options, `created_at` and `updated_at` too; these raise it only on the columns the askable read
 * names. The counter keeps its value, so that rows a running process keeps stay valid. The triggers
 * and function of 0014 are dropped by the names 0014 gave them.
 */
export function keptDeclaredMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['test_questions', 'test_answers']) {
        if (kind === 'sqlite') {
          for (const op of ['insert', 'update', 'delete'])
            await sql`drop trigger ${sql.raw(`${table}_contents_version_${op}`)}`.execute(db);
          continue;
        }
        for (const name of [`${table}_contents_version`, `${table}_contents_version_truncate`])
          await sql`drop trigger ${sql.raw(name)} on ${sql.table(table)}`.execute(db);
      }
      if (kind === 'postgres') await sql`drop function test_contents_version()`.execute(db);
      await createVersionTriggers(db, kind, ASKABLE);
    },
  };
}
