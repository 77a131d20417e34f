import type { AuditQuery } from '@lms/contract';
import { sql, type Insertable } from 'kysely';
import type { PeopleChangesTable } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

const ROWS_PER_INSERT = 500;

/** The page's filters as the statement takes them. */
export type AuditFilter = Pick<AuditQuery, 'source' | 'action' | 'search'>;

/** `people_changes`: written once per change, never updated or deleted. */
export class AuditRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  async insert(rows: readonly Insertable<PeopleChangesTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await this.db
        .insertInto('people_changes')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
  }

  private filtered(filter: AuditFilter) {
    let q = this.db.selectFrom('people_changes');
    if (filter.source) q = q.where('source', '=', filter.source);
    if (filter.action) q = q.where('action', '=', filter.action);
    const search = filter.search?.trim().toLowerCase();
    if (search) {
      // The names as recorded, read by an admin now and then: no index needed for a substring.
      const position = sql.raw(this.uow.kind === 'sqlite' ? 'instr' : 'strpos');
      q = q.where(
        sql<boolean>`(${position}(lower(subject_name), ${search}) > 0 or ${position}(lower(coalesce(actor_name, '')), ${search}) > 0)`,
      );
    }
    return q;
  }

  /** One page, newest first (the order of `people_changes_at_idx`). */
  async page(filter: AuditFilter, limit: number, offset: number) {
    const [rows, count] = await Promise.all([
      this.filtered(filter)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}

export type AuditRow = Awaited<ReturnType<AuditRepository['page']>>['rows'][number];
