import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { AuditedMail } from '../../platform/mail/mailer.js';
import { deadlineReminderMail, teamDigestMail, type MailContext } from '../../platform/mail/templates.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { MailOutbox } from '../mail/outbox.js';
import type { SealedMail } from '../mail/repository.js';
import type { LearningEngine } from '../progress/service.js';
import type { RemindersRepository } from './repository.js';

/** A learner has one state per course, so (user, course) names a due reminder. */
const pairKey = (userId: number, courseId: number) => `${userId}:${courseId}`;

export interface PassResult {
  reminders: number;
  digests: number;
}

export interface RemindersOptions {
  /**
   * Reminders claimed per transaction. A mass change (every course of the company overdue at once)
   * is claimed batch after batch, each with its mails, so that no transaction grows with the company.
   */
  perPass: number;
  /** When the weekly digest goes out: ISO day of the week (1 = Monday) and hour of the company's zone. */
  digest: { weekday: number; hour: number };
  /** Where passes and what they claimed are counted (the metrics, platform/metrics.ts). */
  counts?: { reminderPass(claimed: PassResult | null): void };
}

/**
 * Deadline reminders to learners and weekly digests to managers (issue 16), run by the server on a
 * timer. Set-based over the maintained learning state; each mail is claimed by a unique row and queued
 * in the outbox (modules/mail/outbox.ts) in the same transaction, so a claim never exists without its
 * mail nor a mail without its claim: reruns, restarts and concurrent processes send each one once,
 * and an outage of the mail server only delays it.
 */
export class RemindersService {
  #passes = new Set<Promise<PassResult>>();
  #closed = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: RemindersRepository,
    private readonly courses: CoursesRepository,
    private readonly engine: LearningEngine,
    private readonly analytics: AnalyticsService,
    private readonly outbox: MailOutbox,
    private readonly mail: MailContext,
    private readonly clock: Clock,
    private readonly opts: RemindersOptions,
  ) {}

  /** Claims and queues every reminder and digest due now; resolves with how many were claimed. */
  pass(): Promise<PassResult> {
    const counts = this.opts.counts;
    const run = this.#pass()
      .then(
        (claimed) => {
          counts?.reminderPass(claimed);
          return claimed;
        },
        (error: unknown) => {
          counts?.reminderPass(null);
          throw error;
        },
      )
      .finally(() => this.#passes.delete(run));
    this.#passes.add(run);
    return run;
  }

  /** Shutdown: a running pass ends after its current batch (each batch commits whole); no new one starts. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#passes.size > 0) await Promise.allSettled([...this.#passes]);
  }

  async #pass(): Promise<PassResult> {
    if (this.#closed) return { reminders: 0, digests: 0 };
    // States whose next recurrence cycle opened are rewritten first: the new cycle is what is due.
    while ((await this.uow.run(() => this.engine.renewExpired())) > 0);
    let reminders = 0;
    for (;;) {
      const { due, claimed } = await this.remind();
      reminders += claimed;
      // A full batch may have left more behind; each claimed reminder is recorded, so this ends.
      if (due < this.opts.perPass || this.#closed) break;
    }
    return { reminders, digests: this.#closed ? 0 : await this.digest() };
  }

  /**
   * One batch: the reminders due now (at most `perPass`), claimed and queued in one transaction. The
   * mails are composed and sealed before it, so that the transaction (SQLite's write lock) holds only
   * the claims and the rows of the mails whose claim this pass won.
   */
  private async remind(): Promise<{ due: number; claimed: number }> {
    const now = this.clock.now();
    const due = await this.repo.due(iso(now), this.opts.perPass);
    if (due.length === 0) return { due: 0, claimed: 0 };
    const users = [...new Set(due.map((d) => d.user_id))];
    const courseIds = [...new Set(due.map((d) => d.course_id))];
    const people = new Map((await this.repo.recipients(users)).map((r) => [r.id, r]));
    const titles = new Map((await this.courses.titles(courseIds)).map((c) => [c.id, c.title]));
    const sealed = new Map<string, SealedMail>();
    for (const d of due) {
      const title = titles.get(d.course_id);
      const person = people.get(d.user_id);
      if (title === undefined || !person) continue;
      const mail = deadlineReminderMail(this.mail, person.email, {
        kind: d.kind,
        name: person.first_name,
        courseId: d.course_id,
        course: title,
        deadline: d.deadline,
      });
      const about = { kind: d.kind, user_id: d.user_id, course_id: d.course_id };
      sealed.set(pairKey(d.user_id, d.course_id), this.outbox.seal({ ...mail, audit: about }));
    }
    const claimed = await this.uow.run(async () => {
      const won = await this.repo.claim(due, iso(now));
      // A learner or course deleted since they were read gets nothing; the claim stays as a record.
      const live = new Set((await this.repo.recipients([...new Set(won.map((w) => w.user_id))])).map((r) => r.id));
      const liveCourses = new Set(
        (await this.courses.titles([...new Set(won.map((w) => w.course_id))])).map((c) => c.id),
      );
      const mails: SealedMail[] = [];
      for (const w of won) {
        const mail = sealed.get(pairKey(w.user_id, w.course_id));
        if (mail && live.has(w.user_id) && liveCourses.has(w.course_id)) mails.push(mail);
      }
      await this.outbox.enqueueSealed(mails);
      return won.length;
    });
    return { due: due.length, claimed };
  }

  /**
   * The week's digests, once the week's moment (DIGEST_DAY at DIGEST_HOUR of the company's zone) has
   * come: keyed by that moment's calendar day, so each recipient gets one per week, and a process
   * that was down at that hour sends it on its first pass afterwards.
   */
  private async digest(): Promise<number> {
    const now = this.clock.now();
    const week = this.mail.people.lastWeekly(now, this.opts.digest.weekday, this.opts.digest.hour);
    // In one order in every process, so that two passes claiming at once cannot deadlock.
    const recipients = (await this.repo.digestRecipients(week)).sort((a, b) => a.id - b.id);
    if (recipients.length === 0) return 0;
    const digests = await this.analytics.digests(
      recipients.map((r) => ({
        id: r.id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        role: r.role_code as SessionUser['role'],
        role_name: r.role_name,
        department_id: r.department_id,
        // Only the analytics scope is read from it, not a session's rights.
        must_change_password: false,
      })),
    );
    const worthSending = (id: number) => {
      const d = digests.get(id);
      return d !== undefined && d.overdue.total + d.almost_overdue.total > 0;
    };
    return this.uow.run(async () => {
      // With nothing to say the week is recorded as handled and no mail goes.
      const claimed = new Set(
        await this.repo.claimDigests(
          recipients.map((r) => ({ user_id: r.id, sent: worthSending(r.id) })),
          week,
          iso(now),
        ),
      );
      const mails: AuditedMail[] = [];
      for (const r of recipients) {
        const digest = digests.get(r.id);
        if (!claimed.has(r.id) || !digest || !worthSending(r.id)) continue;
        mails.push({
          ...teamDigestMail(this.mail, r.email, {
            name: r.first_name,
            companyWide: r.role_code === 'admin',
            overdue: digest.overdue,
            almost: digest.almost_overdue,
          }),
          audit: { kind: 'manager_digest', user_id: r.id, course_id: null },
        });
      }
      await this.outbox.enqueue(mails);
      return mails.length;
    });
  }
}
