import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

/**
 * `files.path` that no column referring to a stored file names (docs/architecture.md §Files): the
 * one list of those columns. Soft-deleted rows still count: their files are records too. Both
 * databases run each `not in` as a hashed anti-join.
 */
function notReferenced(eb: ExpressionBuilder<Database, 'files'>) {
  const path = eb.ref('files.path');
  return eb.and([
    eb(path, 'not in', eb.selectFrom('users').select('photo_path').where('photo_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('courses').select('image_path').where('image_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('lessons').select('image_path').where('image_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('lesson_contents').select('file_path').where('file_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('test_answers').select('image_path').where('image_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('certificate_settings').select('logo_path').where('logo_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('certificates').select('logo_path').where('logo_path', 'is not', null)),
    eb(path, 'not in', eb.selectFrom('attempt_files').select('path')),
  ]);
}

/** The files table: what is stored under DATA_DIR/storage, under which original name, by whom. */
export class FilesRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  async originalName(path: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('files')
      .select('original_filename')
      .where('path', '=', path)
      .executeTakeFirst();
    return row?.original_filename;
  }

  /** Those of the given storage paths that are stored files. */
  async existingPaths(paths: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(paths)];
    if (unique.length === 0) return new Set();
    const rows = await this.db.selectFrom('files').select('path').where('path', 'in', unique).execute();
    return new Set(rows.map((r) => r.path));
  }

  async insert(
    file: { path: string; original_filename: string; mime: string; size: number; uploaded_by: number },
    now: string,
  ): Promise<void> {
    await this.db
      .insertInto('files')
      .values({ ...file, created_at: now, updated_at: now })
      .execute();
  }

  /** Uploads created before `before` that nothing refers to, by id after `afterId`. */
  async unreferenced(
    before: string,
    afterId: number,
    limit: number,
  ): Promise<{ id: number; path: string; size: number }[]> {
    return this.db
      .selectFrom('files')
      .select(['files.id', 'files.path', 'files.size'])
      .where('files.created_at', '<', before)
      .where('files.id', '>', afterId)
      .where(notReferenced)
      .orderBy('files.id')
      .limit(limit)
      .execute();
  }

  /** Deletes the row of a file if still nothing refers to it (checked in the same statement). */
  async deleteIfUnreferenced(path: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('files')
      .where('files.path', '=', path)
      .where(notReferenced)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async delete(path: string): Promise<void> {
    await this.db.deleteFrom('files').where('path', '=', path).execute();
  }
}
