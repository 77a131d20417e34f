import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class FilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async originalName(path: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('files')
      .select('original_filename')
      .where('path', '=', path)
      .executeTakeFirst();
    return row?.original_filename;
  }
}
