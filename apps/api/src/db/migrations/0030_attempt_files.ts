import { sql, type Kysely } from 'kysely';
import type { DialectKind } from '../dialect.js';

/**
 * The files an attempt's snapshot names (an image option as it was when the attempt started), so that
 * the storage cleanup keeps them and the learner's review shows them after the author replaced or
 * removed that option: the snapshot is a record, and so are its images (docs/rules.md §Uploads).
 * Filled from the snapshots already kept; later ones are written with their attempt.
 */
export function attemptFilesMigration(kind: DialectKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('attempt_files')
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('test_attempts.id').onDelete('restrict'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('attempt_files_pk', ['attempt_id', 'path'])
        .execute();
      // The cleanup's anti-join and the download check look files up by path.
      await db.schema.createIndex('attempt_files_path_idx').on('attempt_files').column('path').execute();
      // Only snapshots naming an image: a text search first, the JSON read in JavaScript (both databases).
      // jsonb prints `"key": value`, JSON.stringify (SQLite's text) `"key":value`; a null never matches.
      const [text, named] =
        kind === 'postgres' ? [sql`snapshot::text`, '%"image_path": "%'] : [sql`snapshot`, '%"image_path":"%'];
      for (let after = 0; ;) {
        const rows = await sql<{ id: number; snapshot: unknown }>`
          select id, snapshot from test_attempts
          where id > ${after} and snapshot is not null and ${text} like ${named}
          order by id limit 500`.execute(db);
        if (rows.rows.length === 0) break;
        for (const row of rows.rows) {
          after = row.id;
          const paths = imagePaths(row.snapshot);
          if (paths.length === 0) continue;
          await db
            .insertInto('attempt_files' as never)
            .values(paths.map((path) => ({ attempt_id: row.id, path })) as never)
            .execute();
        }
      }
    },
  };
}

/** The image paths of a stored snapshot (text on SQLite, jsonb parsed by the driver on PostgreSQL). */
function imagePaths(stored: unknown): string[] {
  const snapshot = (typeof stored === 'string' ? JSON.parse(stored) : stored) as {
    questions?: { answers?: { image_path?: unknown }[] }[];
  };
  const paths = new Set<string>();
  for (const q of snapshot.questions ?? [])
    for (const a of q.answers ?? [])
      if (typeof a.image_path === 'string' && a.image_path !== '') paths.add(a.image_path);
  return [...paths];
}
