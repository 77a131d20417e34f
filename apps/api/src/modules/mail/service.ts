import {
  MAIL_LOG_MESSAGES as M,
  MAIL_LOG_PER_PAGE_DEFAULT,
  type MailKind,
  type MailLogItem,
  type MailLogQuery,
  type MailStatus,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { addMs, iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import { fullName } from '../auth/permissions.js';
import type { MailOutbox } from './outbox.js';
import type { MailLogRecord, MailLogRepository } from './repository.js';

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
    status: r.status as MailStatus,
    queued_at: r.queued_at,
    sent_at: r.sent_at,
    attempts: r.attempts,
    error: r.last_error,
    next_attempt_at: r.next_attempt_at,
  };
}

/**
 * The mail log under the school settings (issues 16 and 30): every mail with its status, page by
 * page; an admin sends a failed one again.
 */
export class MailLogService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: MailLogRepository,
    private readonly outbox: MailOutbox,
    private readonly clock: Clock,
    /** The retry window a mail sent again gets (MAIL_RETRY_HOURS). */
    private readonly retryMs: number,
  ) {}

  async page(query: MailLogQuery) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? MAIL_LOG_PER_PAGE_DEFAULT;
    const { rows, total } = await this.repo.page(perPage, (page - 1) * perPage);
    return { items: rows.map(toItem), total, page, per_page: perPage };
  }

  /**
   * A failed mail goes back to the outbox with a fresh retry window, as it was (same address and
   * content); only a failed one, so a mail queued or sent is never sent twice this way.
   */
  resend(id: number): Promise<MailLogItem> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      if (!(await this.repo.requeue(id, iso(now), iso(addMs(now, this.retryMs))))) {
        throw (await this.repo.find(id)) ? unprocessable(M.notFailed) : notFound(M.notFound);
      }
      const item = await this.repo.find(id);
      if (!item) throw notFound(M.notFound);
      this.uow.afterCommit(() => void this.outbox.deliver());
      return toItem(item);
    });
  }
}
