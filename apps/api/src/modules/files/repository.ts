import type { UnitOfWork } from '../../db/unitOfWork.js';

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

  async delete(path: string): Promise<void> {
    await this.db.deleteFrom('files').where('path', '=', path).execute();
  }
}
