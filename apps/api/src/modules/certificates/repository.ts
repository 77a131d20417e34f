import { sql, type Insertable, type Selectable, type SqlBool } from 'kysely';
import { CERTIFICATES_PER_PAGE, type AdminCertificatesQuery, type CertificateStatus } from '@lms/contract';
import type { CertificatesTable, CertificateSettingsTable } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export type CertificateRow = Selectable<CertificatesTable> & { department: string | null };
export type SettingsRow = Selectable<CertificateSettingsTable>;

export type CertificateFilter = Omit<AdminCertificatesQuery, 'page'> & {
  userIds?: readonly number[];
};

/** What the admin list's search compares: lower case in the Russian locale, ё as е. */
export const searchText = (text: string) => text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е');

/** The owner of `certificates` and `certificate_settings` (docs/rules.md §Certificates). */
export class CertificatesRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  settings(courseId: number): Promise<SettingsRow | undefined> {
    return this.db.selectFrom('certificate_settings').selectAll().where('course_id', '=', courseId).executeTakeFirst();
  }

  /** The settings of those of these courses that issue certificates. */
  enabledSettings(courseIds: readonly number[]): Promise<SettingsRow[]> {
    if (courseIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('certificate_settings')
      .selectAll()
      .where('course_id', 'in', courseIds)
      .where('enabled', '=', true)
      .execute();
  }

  async saveSettings(row: Insertable<CertificateSettingsTable>): Promise<void> {
    const { course_id: _course, ...change } = row;
    await this.db
      .insertInto('certificate_settings')
      .values(row)
      .onConflict((oc) => oc.column('course_id').doUpdateSet(change))
      .execute();
  }

  /** Adds the certificates; one already issued for the same learner, course and cycle stays alone. */
  async insertMany(rows: readonly Insertable<CertificatesTable>[]): Promise<number> {
    let added = 0;
    for (const row of rows) {
      const result = await this.db
        .insertInto('certificates')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'course_id', 'cycle']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (result) added++;
    }
    return added;
  }

  private shown() {
    return this.db
      .selectFrom('certificates as c')
      .leftJoin('users as u', 'u.id', 'c.user_id')
      .leftJoin('departments as d', 'd.id', 'u.department_id')
      .selectAll('c')
      .select('d.name as department');
  }

  byNumber(number: string): Promise<CertificateRow | undefined> {
    return this.shown().where('c.number', '=', number).executeTakeFirst();
  }

  /** A learner's certificates, newest first. */
  ofUser(userId: number): Promise<CertificateRow[]> {
    return this.shown()
      .where('c.user_id', '=', userId)
      .orderBy('c.issued_at', 'desc')
      .orderBy('c.id', 'desc')
      .execute();
  }

  private filtered(filter: CertificateFilter, now: string) {
    let q = this.shown();
    if (filter.course_id !== undefined) q = q.where('c.course_id', '=', filter.course_id);
    if (filter.department_id !== undefined) q = q.where('u.department_id', '=', filter.department_id);
    if (filter.userIds) q = q.where('c.user_id', 'in', filter.userIds);
    if (filter.search) {
      // Wildcards typed by the admin are taken literally, with the same escape on both databases.
      const pattern = `%${searchText(filter.search).replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      q = q.where(sql<SqlBool>`${sql.ref('c.search_text')} like ${pattern} escape '\\'`);
    }
    const status: CertificateStatus | undefined = filter.status;
    if (status === 'revoked') q = q.where('c.revoked_at', 'is not', null);
    if (status === 'valid')
      q = q
        .where('c.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('c.valid_until', 'is', null), eb('c.valid_until', '>', now)]));
    if (status === 'expired') q = q.where('c.revoked_at', 'is', null).where('c.valid_until', '<=', now);
    return q;
  }

  async page(filter: CertificateFilter, page: number, now: string): Promise<{ rows: CertificateRow[]; total: number }> {
    const counted = await this.filtered(filter, now)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.filtered(filter, now)
      .orderBy('c.issued_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(CERTIFICATES_PER_PAGE)
      .offset((page - 1) * CERTIFICATES_PER_PAGE)
      .execute();
    return { rows, total: Number(counted.n) };
  }

  /** Every certificate the filter finds, newest first, `size` at a time (exports, archives). */
  async *batches(filter: CertificateFilter, now: string, size = 1000): AsyncGenerator<CertificateRow[]> {
    for (let offset = 0; ; offset += size) {
      const rows = await this.filtered(filter, now)
        .orderBy('c.issued_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(size)
        .offset(offset)
        .execute();
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
    }
  }

  async revoke(id: number, by: number, reason: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('certificates')
      .set({ revoked_at: now, revoked_by: by, revoke_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
