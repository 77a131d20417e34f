import { MAIL_LOG_PER_PAGE_DEFAULT, type MailKind, type MailLogItem, type MailLogQuery } from '@lms/contract';
import { iso, type Clock } from '../../platform/clock.js';
import type { AuditedMail, MailAuditSink } from '../../platform/mail/mailer.js';
import { fullName } from '../auth/permissions.js';
import type { MailLogEntry, MailLogRecord, MailLogRepository } from './repository.js';

const ENTRIES_PER_INSERT = 300;

function toItem(r: MailLogRecord): MailLogItem {
  return {
    id: r.id,
    recipient: r.recipient,
    user_name:
      r.first_name !== null && r.last_name !== null
        ? fullName({ first_name: r.first_name, last_name: r.last_name })
        : null,
    kind: r.kind as MailKind,
    course_id: r.course_id,
    course_name: r.course_name,
    subject: r.subject,
    sent_at: r.sent_at,
  };
}

/**
 * The mail log (issue 16): the mailer records every delivered mail that carries `audit` here, with
 * the injected clock's time; admins read it page by page under the school settings.
 */
export class MailLogService implements MailAuditSink {
  constructor(
    private readonly repo: MailLogRepository,
    private readonly clock: Clock,
  ) {}

  #batch: MailLogEntry[] = [];
  #flush: Promise<void> | null = null;

  /**
   * Mails delivered together (a reminder pass hands thousands to the mailer at once) are written as
   * multi-row inserts on the next turn of the event loop, instead of one statement each queueing on
   * the database connection ahead of every request.
   */
  record(message: AuditedMail): Promise<void> {
    this.#batch.push({
      recipient: message.to,
      user_id: message.audit.user_id,
      kind: message.audit.kind,
      course_id: message.audit.course_id,
      subject: message.subject,
      sent_at: iso(this.clock.now()),
    });
    this.#flush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const entries = this.#batch;
      this.#batch = [];
      this.#flush = null;
      for (let i = 0; i < entries.length; i += ENTRIES_PER_INSERT)
        await this.repo.insertMany(entries.slice(i, i + ENTRIES_PER_INSERT));
    });
    return this.#flush;
  }

  async page(query: MailLogQuery) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? MAIL_LOG_PER_PAGE_DEFAULT;
    const { rows, total } = await this.repo.page(perPage, (page - 1) * perPage);
    return { items: rows.map(toItem), total, page, per_page: perPage };
  }
}
