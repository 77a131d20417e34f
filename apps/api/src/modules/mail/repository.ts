import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface MailLogEntry {
  recipient: string;
  user_id: number | null;
  kind: string;
  course_id: number | null;
  subject: string;
  sent_at: string;
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
  sent_at: string;
}

/**
 * The mail log (issue 16), owned by this module: one row per delivered mail. Built on a unit of
 * work for reads in a service's transaction, or on the pool itself for the mailer's writes, which
 * come after delivery and must not join (or wait for) whatever transaction sent the mail.
 */
export class MailLogRepository {
  constructor(private readonly source: { readonly db: Kysely<Database> }) {}

  private get db() {
    return this.source.db;
  }

  async insertMany(entries: readonly MailLogEntry[]): Promise<void> {
    if (entries.length > 0) await this.db.insertInto('mail_log').values(entries).execute();
  }

  /** One page, newest first (the order of `mail_log_sent_idx`), with the user's and course's names. */
  async page(limit: number, offset: number): Promise<{ rows: MailLogRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('mail_log')
        .leftJoin('users', 'users.id', 'mail_log.user_id')
        .leftJoin('courses', 'courses.id', 'mail_log.course_id')
        .select([
          'mail_log.id',
          'mail_log.recipient',
          'mail_log.user_id',
          'users.first_name',
          'users.last_name',
          'mail_log.kind',
          'mail_log.course_id',
          'courses.title as course_name',
          'mail_log.subject',
          'mail_log.sent_at',
        ])
        .orderBy('mail_log.sent_at', 'desc')
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

  /**
   * When a mail of this kind about this course last went to this user (null: never); for the
   * reminder jobs, so that a reminder is sent once per deadline or cycle (`mail_log_user_course_idx`).
   */
  async lastSentAt(userId: number, courseId: number | null, kind: string): Promise<string | null> {
    let q = this.db
      .selectFrom('mail_log')
      .select((eb) => eb.fn.max('sent_at').as('at'))
      .where('user_id', '=', userId)
      .where('kind', '=', kind);
    q = courseId === null ? q.where('course_id', 'is', null) : q.where('course_id', '=', courseId);
    const row = await q.executeTakeFirst();
    return (row?.at as string | null | undefined) ?? null;
  }
}
