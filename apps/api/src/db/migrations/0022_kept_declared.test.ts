import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb, dialectName } from '../../test/harness.js';
import { migrateTo } from '../migrate.js';
import type { Database } from '../schema.js';

const version = async (k: Kysely<Database>) =>
  (await k.selectFrom('counters').select('value').where('name', '=', 'test_contents_version').executeTakeFirst())
    ?.value;

describe(`migration 0022 (${dialectName})`, () => {
  it("keeps the askable rows' version, which a write of a column they do not read no longer raises", async () => {
    const { db, drop } = await createTestDb();
    try {
      const k = db.kysely;
      await migrateTo(k, db.kind, '0021_users_search', db.schema);
      const course = await k.insertInto('courses').values({ title: 'К' }).returning('id').executeTakeFirstOrThrow();
      const mod = await k
        .insertInto('modules')
        .values({ course_id: course.id, name: 'М' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const test = await k
        .insertInto('tests')
        .values({ module_id: mod.id, name: 'Т' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const q = await k
        .insertInto('test_questions')
        .values({ test_id: test.id, question_text: 'В' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const touch = (at: string) => k.updateTable('test_questions').set({ updated_at: at }).where('id', '=', q.id);
      const before = await version(k);
      await touch('2026-03-01T00:00:00.000Z').execute();
      expect(await version(k), '0014 raised it on any write').toBe((before ?? 0) + 1);

      expect(await migrateTo(k, db.kind, '0022_kept_declared', db.schema)).toEqual(['0022_kept_declared']);
      // A process keeping rows read at this version goes on using them.
      const kept = await version(k);
      expect(kept).toBe((before ?? 0) + 1);
      await touch('2026-03-02T00:00:00.000Z').execute();
      expect(await version(k)).toBe(kept);
      await k.updateTable('test_questions').set({ question_text: 'Другой' }).where('id', '=', q.id).execute();
      expect(await version(k)).toBe((kept ?? 0) + 1);
    } finally {
      await drop();
    }
  });
});
