import { sql, type ExpressionBuilder, type UpdateObject } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

/** A mail as it enters the outbox, its content sealed. */
export interface SealedMail {
  recipient: string;
  user_id: number | null;
  kind: string;
  course_id: number | null;
  subject: string;
  /** Sealed content (platform/mail/sealed.ts). */
  body: string;
}

/** A mail a process has taken for one try, with its lease. */
export interface ClaimedMail {
  id: number;
  recipient: string;
  kind: string;
  user_id: number | null;
  course_id: number | null;
  subject: string;
  body: string | null;
  /** Tries so far, this one included. */
  attempts: number;
  retry_until: string | null;
}

export interface MailLogRecord {
  id: number;
  recipient: string;
  user_id: number | null;
  first_name: string | null;
  last_name: string | null;
  kind: string;
  course_id: number | null;
  course_name: string | null;
  subject: string;
  status: string;
  queued_at: string;
  sent_at: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
}

/** What the log shows of a mail (never its content or lease), with the user's and course's names. */
const RECORD_COLUMNS = [
  'mail_log.id',
  'mail_log.recipient',
  'mail_log.user_id',
  'users.first_name',
  'users.last_name',
  'mail_log.kind',
  'mail_log.course_id',
  'courses.title as course_name',
  'mail_log.subject',
  'mail_log.status',
  'mail_log.queued_at',
  'mail_log.sent_at',
  'mail_log.attempts',
  'mail_log.last_error',
  'mail_log.next_attempt_at',
] as const;

/** Ten values a row: well inside the bound variables of one SQLite statement. */
const MAILS_PER_INSERT = 300;

/**
 * The mail log and outbox (issues 16 and 30), owned by this module: one row per mail from the moment
 * it is queued. Queuing reads its executor from the unit of work, so a mail queued inside a service's
 * transaction commits or rolls back with it; the delivery pass runs outside any unit, on the pool.
 * A try is taken with a lease (`lease_owner`, `lease_until`) in one statement, so two processes never
 * take the same mail at once, and its outcome is written only by the process holding the lease.
 */
export class MailLogRepository {
  constructor(private readonly uow: Pick<UnitOfWork, 'db' | 'kind'>) {}

  private get db() {
    return this.uow.db;
  }

  async insertQueued(mails: readonly SealedMail[], now: string, retryUntil: string): Promise<void> {
    for (let i = 0; i < mails.length; i += MAILS_PER_INSERT) {
      const part = mails.slice(i, i + MAILS_PER_INSERT);
      await this.db
        .insertInto('mail_log')
        .values(
          part.map((m) => ({
            ...m,
            status: 'queued',
            queued_at: now,
            sent_at: null,
            next_attempt_at: now,
            retry_until: retryUntil,
          })),
        )
        .execute();
    }
  }

  /** Mails waiting for a try (the metrics' backlog); the partial index of queued mails answers it. */
  async countQueued(): Promise<number> {
    const row = await this.db
      .selectFrom('mail_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Takes up to `limit` queued mails whose next try is due and whose lease (if any) has run out,
   * oldest first, for `owner` until `leaseUntil`, counting the try. One statement: on PostgreSQL the
   * rows another process is taking are skipped, and the lease is checked again on the row it locks;
   * SQLite runs one writer at a time.
   */
  async claim(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedMail[]> {
    const leaseOver = (eb: ExpressionBuilder<Database, 'mail_log'>) =>
      eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]);
    const rows = await this.db
      // Materialized: read once. Folded into the update as a subquery, PostgreSQL may run it again for
      // each row, and each run skips the rows the last one locked: more than `limit` rows would be taken.
      .with(
        (cte) => cte('due').materialized(),
        (db) => {
          const due = db
            .selectFrom('mail_log')
            .select('id')
            .where('status', '=', 'queued')
            .where('next_attempt_at', '<=', now)
            .where(leaseOver)
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit);
          return this.uow.kind === 'postgres' ? due.forUpdate().skipLocked() : due;
        },
      )
      .updateTable('mail_log')
      .set({ lease_owner: owner, lease_until: leaseUntil, attempts: sql<number>`attempts + 1` })
      .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
      // Checked again on the row as locked: a taker that waited for it sees the other's lease.
      .where('status', '=', 'queued')
      .where(leaseOver)
      .returning(['id', 'recipient', 'kind', 'user_id', 'course_id', 'subject', 'body', 'attempts', 'retry_until'])
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /**
   * Ends the tries `owner` holds on `ids` with `change`, giving the lease up; a mail whose lease
   * `owner` had lost is left alone. Answers how many mails it ended.
   */
  private async endTries(
    ids: readonly number[],
    owner: string,
    change: UpdateObject<Database, 'mail_log'>,
  ): Promise<number> {
    const r = await this.db
      .updateTable('mail_log')
      .set({ ...change, lease_owner: null, lease_until: null })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Delivered: the content goes (it may hold a password). False when `owner` had lost the lease. */
  async markSent(id: number, owner: string, now: string): Promise<boolean> {
    const change = { status: 'sent', sent_at: now, body: null, last_error: null, next_attempt_at: null };
    return (await this.endTries([id], owner, change)) > 0;
  }

  /** A failed try: queued again for `nextAt`, or (`nextAt` null) given up as failed. */
  async markFailure(id: number, owner: string, reason: string, nextAt: string | null): Promise<boolean> {
    const status = nextAt === null ? 'failed' : 'queued';
    return (await this.endTries([id], owner, { status, last_error: reason, next_attempt_at: nextAt })) > 0;
  }

  /** Gives back mails taken but never tried (shutdown): any process may take them at once. */
  async release(ids: readonly number[], owner: string): Promise<void> {
    if (ids.length > 0) await this.endTries(ids, owner, { attempts: sql<number>`attempts - 1` });
  }

  /** A failed mail queued again with a fresh retry window; false when it is not (or no longer) failed. */
  async requeue(id: number, now: string, retryUntil: string): Promise<boolean> {
    const r = await this.db
      .updateTable('mail_log')
      .set({ status: 'queued', attempts: 0, next_attempt_at: now, retry_until: retryUntil, last_error: null })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  private records() {
    return this.db
      .selectFrom('mail_log')
      .leftJoin('users', 'users.id', 'mail_log.user_id')
      .leftJoin('courses', 'courses.id', 'mail_log.course_id')
      .select(RECORD_COLUMNS);
  }

  async find(id: number): Promise<MailLogRecord | undefined> {
    return this.records().where('mail_log.id', '=', id).executeTakeFirst();
  }

  /** One page, newest first (the order of `mail_log_queued_idx`), with the user's and course's names. */
  async page(limit: number, offset: number): Promise<{ rows: MailLogRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.records()
        .orderBy('mail_log.queued_at', 'desc')
        .orderBy('mail_log.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('mail_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
