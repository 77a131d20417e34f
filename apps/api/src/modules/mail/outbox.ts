import { randomBytes } from 'node:crypto';
import type { MailKind } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { MINUTE, addMs, iso, type Clock } from '../../platform/clock.js';
import type { AuditedMail, MailTransport, Mailer } from '../../platform/mail/mailer.js';
import type { MailBody, MailSealer } from '../../platform/mail/sealed.js';
import { deliveryFailure } from '../../platform/mail/transport.js';
import type { ClaimedMail, MailLogRepository, SealedMail } from './repository.js';

/**
 * The waits between a mail's failed tries: a short outage is bridged within minutes, a long one is
 * tried every two hours until the mail's retry window (MAIL_RETRY_HOURS, 24 by default) is over.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1, 5, 15, 30, 60, 120].map((m) => m * MINUTE);

/** The wait after the `attempts`-th failed try. */
export const retryDelay = (attempts: number): number =>
  RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1] as number;

/**
 * How long a process holds the mails it took. A batch's deliveries end well within it (each is bounded
 * by SMTP_TIMEOUTS, a few at a time), so no other process takes a mail still being sent; a process
 * that died holding mails leaves them to the others once it runs out.
 */
export const LEASE_MS = 10 * MINUTE;

export interface OutboxLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxOptions {
  /** How long failures are retried (MAIL_RETRY_HOURS). */
  retryMs: number;
  log: OutboxLog;
  /** Deliveries running at once: an SMTP server is not flooded by a mass pass. */
  concurrency?: number;
  /** Mails taken per statement. */
  batch?: number;
  /** Where each try's outcome is counted (the metrics, platform/metrics.ts). */
  counts?: { mailTried(outcome: 'sent' | 'retry' | 'failed'): void };
}

/** The unreadable content of a mail sealed under another APP_SECRET: nothing to retry. */
const UNREADABLE = 'Содержимое письма не удалось прочитать: ключ приложения (APP_SECRET) изменился';

/**
 * The outbox (issue 30 item 23): every mail is a row of the mail log from the moment it is queued, and
 * a delivery pass — started when mails are committed, and by the server's timer for retries and for
 * mails a stopped process left — takes due mails under a lease, hands them to the transport a few at
 * a time and records each outcome: sent (the content is dropped), queued again after a back-off with
 * the reason, or failed once its retry window is over (an admin may send it again). No mail is lost
 * to an outage, and no two processes send the same mail.
 */
export class MailOutbox implements Mailer {
  /** Names this process's leases. */
  readonly #owner = randomBytes(8).toString('hex');
  #loop: Promise<void> | undefined;
  /** A pass was asked for while one ran: it looks for due mails once more before it ends. */
  #again = false;
  #closed = false;
  readonly #concurrency: number;
  readonly #batch: number;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: MailLogRepository,
    private readonly transport: MailTransport,
    private readonly sealer: MailSealer,
    private readonly clock: Clock,
    private readonly opts: OutboxOptions,
  ) {
    this.#concurrency = opts.concurrency ?? 4;
    this.#batch = opts.batch ?? 16;
  }

  send(message: AuditedMail): Promise<void> {
    return this.enqueue([message]);
  }

  /**
   * Queues mails: in the current unit of work when there is one (they exist only if it commits), and
   * the delivery pass starts once they are committed.
   */
  enqueue(messages: readonly AuditedMail[]): Promise<void> {
    return this.enqueueSealed(messages.map((m) => this.seal(m)));
  }

  /** A mail ready to be queued: its content sealed. The costly part of queuing, done before a transaction. */
  seal(message: AuditedMail): SealedMail {
    return {
      recipient: message.to,
      user_id: message.audit.user_id,
      kind: message.audit.kind,
      course_id: message.audit.course_id,
      subject: message.subject,
      body: this.sealer.seal({ html: message.html, text: message.text }),
    };
  }

  /** Queues sealed mails (see `enqueue`). */
  async enqueueSealed(mails: readonly SealedMail[]): Promise<void> {
    if (mails.length === 0) return;
    const now = this.clock.now();
    await this.repo.insertQueued(mails, iso(now), iso(addMs(now, this.opts.retryMs)));
    this.uow.afterCommit(() => void this.deliver());
  }

  /**
   * A delivery pass: takes and tries due mails until none is left; resolves when it ends. Joins the
   * pass already running (which then looks once more), so there is one per process at a time.
   */
  deliver(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#again = true;
    this.#loop ??= this.#run().finally(() => {
      this.#loop = undefined;
      if (this.#again) void this.deliver();
    });
    return this.#loop;
  }

  /** Resolves when no pass of this process is running (tests read what was delivered after it). */
  async settled(): Promise<void> {
    while (this.#loop) await this.#loop;
  }

  /**
   * Shutdown, first step: no try starts from now on; mails taken but not tried are given back, so
   * that another process (or the next start) sends them at once. Mails queued later wait in the outbox.
   */
  stop(): void {
    this.#closed = true;
  }

  /** Shutdown: stops, then waits for the tries under way to finish. */
  async close(): Promise<void> {
    this.stop();
    await this.settled();
  }

  async #run(): Promise<void> {
    while (this.#again && !this.#closed) {
      this.#again = false;
      try {
        while (!this.#closed && (await this.#takeAndTry()) > 0);
      } catch (err) {
        this.opts.log.error({ err }, 'mail delivery pass failed');
      }
    }
  }

  /** One batch: returns how many mails were taken (0: none is due). */
  async #takeAndTry(): Promise<number> {
    const now = this.clock.now();
    const taken = await this.repo.claim(this.#owner, iso(now), iso(addMs(now, LEASE_MS)), this.#batch);
    const untried: number[] = [];
    let next = 0;
    const worker = async () => {
      for (let mail = taken[next++]; mail; mail = taken[next++]) {
        if (this.#closed) untried.push(mail.id);
        else await this.#try(mail);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, taken.length) }, worker));
    await this.repo.release(untried, this.#owner);
    return taken.length;
  }

  async #try(mail: ClaimedMail): Promise<void> {
    const about = { id: mail.id, to: mail.recipient, subject: mail.subject, kind: mail.kind, attempt: mail.attempts };
    try {
      let body: MailBody;
      try {
        if (mail.body === null) throw new Error('no content');
        body = this.sealer.open(mail.body);
      } catch {
        this.opts.log.error(about, 'mail content unreadable, giving up');
        this.opts.counts?.mailTried('failed');
        await this.#record(about, () => this.repo.markFailure(mail.id, this.#owner, UNREADABLE, null));
        return;
      }
      try {
        await this.transport.deliver({
          to: mail.recipient,
          subject: mail.subject,
          ...body,
          audit: { kind: mail.kind as MailKind, user_id: mail.user_id, course_id: mail.course_id },
        });
      } catch (err) {
        const failure = deliveryFailure(err);
        const now = this.clock.now();
        const giveUp = failure.permanent || mail.retry_until === null || now.getTime() >= Date.parse(mail.retry_until);
        const nextAt = giveUp ? null : iso(addMs(now, retryDelay(mail.attempts)));
        this.opts.counts?.mailTried(giveUp ? 'failed' : 'retry');
        this.opts.log.error(
          { ...about, reason: failure.reason, next: nextAt },
          giveUp ? 'mail failed, giving up' : 'mail failed, will retry',
        );
        await this.#record(about, () => this.repo.markFailure(mail.id, this.#owner, failure.reason, nextAt));
        return;
      }
      // Delivered: recorded at once. Should the database fail right here, the mail stays taken until its
      // lease runs out and could then go a second time; the log says so.
      this.opts.log.info({ to: mail.recipient, subject: mail.subject }, 'mail sent');
      this.opts.counts?.mailTried('sent');
      await this.#record(about, () => this.repo.markSent(mail.id, this.#owner, iso(this.clock.now())));
    } catch (err) {
      this.opts.log.error({ ...about, err }, 'mail outcome not recorded');
    }
  }

  /** Writes an outcome; a lease that ran out meanwhile (another process may have the mail) is logged. */
  async #record(about: object, write: () => Promise<boolean>): Promise<void> {
    if (!(await write())) this.opts.log.error(about, 'mail lease ran out before its outcome was recorded');
  }
}
