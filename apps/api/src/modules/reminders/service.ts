import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { MailMessage, Mailer } from '../../platform/mail/mailer.js';
import { deadlineReminderMail, teamDigestMail, type MailContext } from '../../platform/mail/templates.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { LearningEngine } from '../progress/service.js';
import type { DigestClaim, ReminderClaim, RemindersRepository } from './repository.js';

/** Monday of the ISO week of `at`, yyyy-mm-dd in UTC: the key of a weekly digest. */
export function weekOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day)).toISOString().slice(0, 10);
}

/** A learner has one state per course, so (user, course) names a due reminder. */
const pairKey = (userId: number, courseId: number) => `${userId}:${courseId}`;

export interface PassResult {
  reminders: number;
  digests: number;
}

/** A claimed mail not yet handed to the mailer, and the claim to give back if it never is. */
interface Outgoing {
  compose(): MailMessage;
  claim: { reminder: ReminderClaim } | { digest: DigestClaim };
}

/**
 * How many mails may wait in the mailer at once. A mass pass (every course overdue at once) claims
 * its mails in one go but hands them over at the mailer's pace, composing each only then: memory
 * stays bounded, and what was never handed over can be given back on shutdown.
 */
const HANDOVER_WINDOW = 64;

/**
 * Deadline reminders to learners and weekly digests to managers (issue 16), run by the server on a
 * timer. Set-based over the maintained learning state; each mail is claimed by a unique row before
 * it is handed to the mailer (which retries delivery), so reruns, restarts and concurrent processes
 * never send one twice.
 */
export class RemindersService {
  #outbox: Outgoing[] = [];
  #next = 0;
  #feeding: Promise<void> | undefined;
  #passes = new Set<Promise<PassResult>>();
  #closed = false;
  /** The last pass left due reminders unclaimed (`perPass`): the next one follows the handover. */
  #more = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: RemindersRepository,
    private readonly courses: CoursesRepository,
    private readonly engine: LearningEngine,
    private readonly analytics: AnalyticsService,
    private readonly mailer: Mailer,
    private readonly mail: MailContext,
    private readonly clock: Clock,
    private readonly opts: {
      /**
       * Reminders one pass claims at most. The mailer delivers a few at a time, so claiming a mass
       * change's 100 000 at once gains nothing and makes the pass as long as the company is big; the
       * next pass starts as soon as these are handed over.
       */
      perPass: number;
      log: { error(details: object, message: string): void };
    } = { perPass: 20_000, log: { error: () => {} } },
  ) {}

  /**
   * Claims every reminder and digest due now and starts handing them to the mailer; resolves once
   * they are claimed (delivery goes on in the background, see `delivered`).
   */
  pass(): Promise<PassResult> {
    const run = this.#pass().finally(() => this.#passes.delete(run));
    this.#passes.add(run);
    return run;
  }

  /**
   * Resolves when every mail claimed so far, and by the passes that follow a capped one, has been
   * handed over and delivered (or given up).
   */
  async delivered(): Promise<void> {
    while (this.#feeding || this.#passes.size > 0) {
      if (this.#feeding) await this.#feeding;
      await Promise.allSettled([...this.#passes]);
    }
    await this.mailer.idle();
  }

  /**
   * Shutdown: lets a running pass finish claiming, then gives back the claims of mails not yet
   * handed to the mailer, so that the next pass (of any process) sends them instead of nobody.
   */
  async close(): Promise<void> {
    // Closed first, so that no pass follows a capped one; the running passes still finish claiming.
    this.#closed = true;
    while (this.#passes.size > 0) await Promise.allSettled([...this.#passes]);
    const left = this.#outbox.slice(this.#next);
    this.#outbox = [];
    this.#next = 0;
    if (left.length === 0) return;
    const reminders: ReminderClaim[] = [];
    const digests: DigestClaim[] = [];
    for (const { claim } of left) {
      if ('reminder' in claim) reminders.push(claim.reminder);
      else digests.push(claim.digest);
    }
    await this.uow.run(() => this.repo.release(reminders, digests));
  }

  async #pass(): Promise<PassResult> {
    if (this.#closed) return { reminders: 0, digests: 0 };
    // States whose next recurrence cycle opened are rewritten first: the new cycle is what is due.
    while ((await this.uow.run(() => this.engine.renewExpired())) > 0);
    return { reminders: await this.remind(), digests: await this.digest() };
  }

  #handOver(items: readonly Outgoing[]): void {
    for (const item of items) this.#outbox.push(item);
    if (this.#feeding || this.#outbox.length === this.#next) return;
    this.#feeding = this.#feed().finally(() => {
      this.#feeding = undefined;
      if (this.#next < this.#outbox.length) this.#handOver([]);
    });
  }

  async #feed(): Promise<void> {
    while (!this.#closed && this.#next < this.#outbox.length) {
      if (this.mailer.backlog() >= HANDOVER_WINDOW) {
        await this.mailer.whenBelow(HANDOVER_WINDOW);
        continue;
      }
      const item = this.#outbox[this.#next++] as Outgoing;
      this.mailer.send(item.compose());
    }
    if (this.#next === this.#outbox.length) {
      this.#outbox = [];
      this.#next = 0;
      this.#followUp();
    }
  }

  /** After a capped pass's mails are handed over (or it won none), the next pass claims more. */
  #followUp(): void {
    if (!this.#more || this.#closed) return;
    this.#more = false;
    this.pass().catch((error: unknown) => this.opts.log.error({ err: error }, 'reminder pass failed'));
  }

  private async remind(): Promise<number> {
    const now = this.clock.now();
    const due = await this.repo.due(iso(now), this.opts.perPass);
    // A full batch may have left more behind: the next pass follows once these are handed over.
    this.#more = due.length === this.opts.perPass;
    if (due.length === 0) return 0;
    const byPair = new Map(due.map((d) => [pairKey(d.user_id, d.course_id), d]));
    // The addresses and titles are read in the claims' transaction: if a read fails, the claims go
    // too, rather than staying recorded for mails that nobody will send.
    const { won, people, titles } = await this.uow.run(async () => {
      const claimed = await this.repo.claim(due, iso(now));
      const recipients = await this.repo.recipients([...new Set(claimed.map((w) => w.user_id))]);
      const courses = await this.courses.titles([...new Set(claimed.map((w) => w.course_id))]);
      return {
        won: claimed,
        people: new Map(recipients.map((r) => [r.id, r])),
        titles: new Map(courses.map((c) => [c.id, c.title])),
      };
    });
    const outgoing: Outgoing[] = [];
    for (const w of won) {
      const c = byPair.get(pairKey(w.user_id, w.course_id));
      const title = titles.get(w.course_id);
      const person = people.get(w.user_id);
      // A learner or course deleted since the reminders were read gets nothing; the claim stays as a record.
      if (!c || title === undefined || !person) continue;
      outgoing.push({
        claim: { reminder: w },
        compose: () => ({
          ...deadlineReminderMail(this.mail, person.email, {
            kind: w.kind,
            name: person.first_name,
            courseId: c.course_id,
            course: title,
            deadline: c.deadline,
          }),
          audit: { kind: w.kind, user_id: c.user_id, course_id: c.course_id },
        }),
      });
    }
    this.#handOver(outgoing);
    // Nothing to hand over (another process won them all): the feed will not call for the next pass.
    if (outgoing.length === 0) queueMicrotask(() => this.#followUp());
    return won.length;
  }

  private async digest(): Promise<number> {
    const now = this.clock.now();
    const week = weekOf(now);
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
    // With nothing to say the week is recorded as handled and no mail goes.
    const claimed = new Set(
      await this.uow.run(() =>
        this.repo.claimDigests(
          recipients.map((r) => ({ user_id: r.id, sent: worthSending(r.id) })),
          week,
          iso(now),
        ),
      ),
    );
    const outgoing: Outgoing[] = [];
    for (const r of recipients) {
      const digest = digests.get(r.id);
      if (!claimed.has(r.id) || !digest || !worthSending(r.id)) continue;
      outgoing.push({
        claim: { digest: { user_id: r.id, week } },
        compose: () => ({
          ...teamDigestMail(this.mail, r.email, {
            name: r.first_name,
            companyWide: r.role_code === 'admin',
            overdue: digest.overdue,
            almost: digest.almost_overdue,
          }),
          audit: { kind: 'manager_digest', user_id: r.id, course_id: null },
        }),
      });
    }
    this.#handOver(outgoing);
    return outgoing.length;
  }
}
