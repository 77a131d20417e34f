import { sql } from 'kysely';
import type { PeopleAction, PeopleBatch, PeopleImportOptions, PersonField } from '@lms/contract';
import { toJson } from '../../db/values.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { PersonInput, Plan } from './plan.js';

const ROWS_PER_INSERT = 500;
/**
 * The advisory lock of applying people batches: a single 64-bit key, a space apart from the
 * two-key locks of the learning state (progress/locks.ts).
 */
const APPLY_LOCK = 32_001;

/** What a batch was planned with, stored with it so that applying plans the same way. */
export interface BatchChoices extends PeopleImportOptions {
  columns: PersonField[];
}

export interface StoredBatch {
  batch: PeopleBatch;
  columns: PersonField[];
  fingerprint: string;
  createdBy: number | null;
}

/** An input as its row keeps it (the line is a column of its own). */
function storedInput(input: PersonInput | undefined): Omit<PersonInput, 'line'> {
  if (!input) return { cells: {} };
  const { line: _line, ...rest } = input;
  return rest;
}

/** `people_batches` and their rows: dry runs of imports and syncs (modules/people owns both). */
export class PeopleBatchRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  /** Stores a dry run: the batch, then each input row with what it would do, in input order. */
  async insert(
    head: { source: 'import' | 'directory'; fileName: string | null; createdBy: number | null; now: string },
    choices: BatchChoices,
    inputs: readonly PersonInput[],
    plan: Plan,
  ): Promise<number> {
    const { id } = await this.db
      .insertInto('people_batches')
      .values({
        source: head.source,
        status: 'previewed',
        file_name: head.fileName,
        created_by: head.createdBy,
        created_at: head.now,
        plan_options: toJson(choices),
        plan_counts: toJson(plan.counts),
        new_departments: toJson(plan.newDepartments),
        fingerprint: plan.fingerprint,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = plan.rows.map((row, position) => ({
      batch_id: id,
      position,
      line: row.line,
      action: row.action,
      email: row.email,
      name: row.name,
      user_id: row.user_id,
      field_changes: toJson(row.changes),
      row_errors: toJson(row.errors),
      // The plan's first rows are the inputs, in order; rows after them are people no input named.
      person: position < inputs.length ? toJson(storedInput(inputs[position])) : null,
    }));
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await this.db
        .insertInto('people_batch_rows')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
    return id;
  }

  /**
   * Applies of batches one at a time (PostgreSQL; SQLite writes one transaction at a time already):
   * each plans again from the company as the one before it left it, so two that would both create
   * the same person cannot both pass their check. Taken first in an apply, before any other lock.
   */
  async holdApplies(): Promise<void> {
    if (this.uow.kind === 'postgres') await sql`select pg_advisory_xact_lock(${APPLY_LOCK}::int8)`.execute(this.db);
  }

  /** The newest batch of a source, if any. */
  async lastId(source: 'import' | 'directory'): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('people_batches')
      .select('id')
      .where('source', '=', source)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** The batch; with `lock`, its row stays locked until the unit ends (PostgreSQL). */
  async find(id: number, lock = false): Promise<StoredBatch | undefined> {
    let q = this.db.selectFrom('people_batches').selectAll().where('id', '=', id);
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) return undefined;
    const { columns, ...options } = row.plan_options as BatchChoices;
    return {
      batch: {
        id: row.id,
        source: row.source as PeopleBatch['source'],
        status: row.status as PeopleBatch['status'],
        file_name: row.file_name,
        created_at: row.created_at,
        applied_at: row.applied_at,
        options,
        counts: row.plan_counts,
        new_departments: row.new_departments,
      },
      columns,
      fingerprint: row.fingerprint,
      createdBy: row.created_by,
    };
  }

  /** The inputs of a batch, in their order. */
  async inputs(id: number): Promise<PersonInput[]> {
    const rows = await this.db
      .selectFrom('people_batch_rows')
      .select(['line', 'person'])
      .where('batch_id', '=', id)
      .where('person', 'is not', null)
      .orderBy('position')
      .execute();
    return rows.map((r) => ({ line: r.line, ...(r.person as Omit<PersonInput, 'line'>) }));
  }

  async rowsPage(id: number, action: PeopleAction | undefined, limit: number, offset: number) {
    let q = this.db.selectFrom('people_batch_rows').where('batch_id', '=', id);
    if (action) q = q.where('action', '=', action);
    const [rows, count] = await Promise.all([
      q
        .select(['line', 'action', 'email', 'name', 'user_id', 'field_changes', 'row_errors'])
        .orderBy('position')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Forgets the rows of the batches made before `before` (their heads, with the counts, stay). */
  async pruneRows(before: string): Promise<void> {
    await this.db
      .deleteFrom('people_batch_rows')
      .where('batch_id', 'in', (eb) => eb.selectFrom('people_batches').select('id').where('created_at', '<', before))
      .execute();
  }

  /** Forgets one batch's rows (a scheduled sync that found nothing to change). */
  async dropRows(id: number): Promise<void> {
    await this.db.deleteFrom('people_batch_rows').where('batch_id', '=', id).execute();
  }

  async markApplied(id: number, now: string): Promise<void> {
    await this.db
      .updateTable('people_batches')
      .set({ status: 'applied', applied_at: now })
      .where('id', '=', id)
      .execute();
  }
}
