import type { Insertable, Selectable } from 'kysely';
import type { ScormPackagesTable, ScormRunsTable } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export type PackageRow = Selectable<ScormPackagesTable>;
export type RunRow = Selectable<ScormRunsTable>;

/** What a result needs of a run: not the CMI a session resumes from. */
const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'lesson_id',
  'package_id',
  'sco',
  'started_at',
  'status',
  'score',
  'total_seconds',
  'session_seconds',
  'updated_at',
] as const;
export type RunSummary = Pick<RunRow, (typeof SUMMARY_COLUMNS)[number]>;

/** The owner of `scorm_packages` and `scorm_runs` (docs/rules.md §SCORM packages). */
export class ScormRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  /** Those of the given folders that hold a version (every version is a record: none is let go). */
  async knownFolders(folders: readonly string[]): Promise<Set<string>> {
    if (folders.length === 0) return new Set();
    const rows = await this.db.selectFrom('scorm_packages').select('folder').where('folder', 'in', folders).execute();
    return new Set(rows.map((r) => r.folder));
  }

  /** Every version of a lesson's package, newest first. */
  versions(lessonId: number) {
    return this.db
      .selectFrom('scorm_packages as p')
      .leftJoin('users as u', 'u.id', 'p.uploaded_by')
      .selectAll('p')
      .select(['u.first_name as uploader_first', 'u.last_name as uploader_last'])
      .select((eb) =>
        eb
          .selectFrom('scorm_runs as r')
          .select((e) => e.fn.count<number>('r.user_id').distinct().as('n'))
          .whereRef('r.package_id', '=', 'p.id')
          .as('learners'),
      )
      .where('p.lesson_id', '=', lessonId)
      .orderBy('p.version', 'desc')
      .execute();
  }

  /** The lesson's current package (its newest version). */
  current(lessonId: number): Promise<PackageRow | undefined> {
    return this.db
      .selectFrom('scorm_packages')
      .selectAll()
      .where('lesson_id', '=', lessonId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Whether the lesson has a package (a SCORM item is published only with one). */
  async hasPackage(lessonId: number): Promise<boolean> {
    return (await this.current(lessonId)) !== undefined;
  }

  /** Which of these lessons have a package (publishing needs one). */
  async lessonsWithPackage(lessonIds: readonly number[]): Promise<Set<number>> {
    if (lessonIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('scorm_packages')
      .select('lesson_id')
      .distinct()
      .where('lesson_id', 'in', lessonIds)
      .execute();
    return new Set(rows.map((r) => r.lesson_id));
  }

  packageById(id: number): Promise<PackageRow | undefined> {
    return this.db.selectFrom('scorm_packages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertPackage(row: Insertable<ScormPackagesTable>): Promise<PackageRow> {
    return this.db.insertInto('scorm_packages').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** A learner's runs of a lesson since `since` (the cycle's start; null = all history), newest first. */
  runs(userId: number, lessonId: number, since: string | null): Promise<RunRow[]> {
    let q = this.db
      .selectFrom('scorm_runs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('lesson_id', '=', lessonId);
    if (since !== null) q = q.where('started_at', '>=', since);
    return q.orderBy('started_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The runs of these learners and lessons (the newest first), for pages listing many items. */
  async runsOf(userIds: readonly number[], lessonIds: readonly number[]): Promise<RunSummary[]> {
    if (userIds.length === 0 || lessonIds.length === 0) return [];
    return this.db
      .selectFrom('scorm_runs')
      .select(SUMMARY_COLUMNS)
      .where('user_id', 'in', userIds)
      .where('lesson_id', 'in', lessonIds)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  run(id: number): Promise<RunRow | undefined> {
    return this.db.selectFrom('scorm_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertRun(row: Insertable<ScormRunsTable>): Promise<RunRow> {
    return this.db.insertInto('scorm_runs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async updateRun(
    id: number,
    change: Partial<Omit<Insertable<ScormRunsTable>, 'id' | 'user_id' | 'lesson_id' | 'package_id' | 'sco'>>,
  ): Promise<void> {
    await this.db.updateTable('scorm_runs').set(change).where('id', '=', id).execute();
  }
}
