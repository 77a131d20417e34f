import type { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, iso, type Clock } from '../../platform/clock.js';
import type { MailMessage, Mailer } from '../../platform/mail/mailer.js';
import { deadlineReminderMail, teamDigestMail, type MailContext } from '../../platform/mail/templates.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { AnalyticsService } from '../analytics/service.js';
import { deadlineStatus } from '../progress/engine.js';
import type { LearningEngine } from '../progress/service.js';
import type { DigestClaim, ReminderCandidate, ReminderClaim, ReminderKind, RemindersRepository } from './repository.js';

/** Monday of the ISO week of `at`, yyyy-mm-dd in UTC: the key of a weekly digest. */
export function weekOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day)).toISOString().slice(0, 10);
}

/** Which reminder a candidate is due now, if any (the engine's deadline rule decides the window). */
export function dueReminder(c: ReminderCandidate, now: Date): ReminderKind | null {
  if (c.has_deadline && c.deadline !== null) {
    const status = deadlineStatus(Date.parse(c.deadline), c.deadline_warning_days, false, now.getTime());
    if (status === 'overdue') return c.sent.has('reminder_overdue') ? null : 'reminder_overdue';
    if (status === 'almost_overdue' && !c.sent.has('reminder_almost_overdue')) return 'reminder_almost_overdue';
  }
  if (c.cycle > 1 && !c.sent.has('reminder_new_cycle')) return 'reminder_new_cycle';
  return null;
}

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

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: RemindersRepository,
    private readonly engine: LearningEngine,
    private readonly analytics: AnalyticsService,
    private readonly mailer: Mailer,
    private readonly mail: MailContext,
    private readonly clock: Clock,
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

  /** Resolves when every mail claimed so far has been handed over and delivered (or given up). */
  async delivered(): Promise<void> {
    while (this.#feeding) await this.#feeding;
    await this.mailer.idle();
  }

  /**
   * Shutdown: lets a running pass finish claiming, then gives back the claims of mails not yet
   * handed to the mailer, so that the next pass (of any process) sends them instead of nobody.
   */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#passes]);
    this.#closed = true;
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
    }
  }

  private async remind(): Promise<number> {
    const now = this.clock.now();
    const horizon = iso(new Date(now.getTime() + (await this.repo.maxWarningDays()) * DAY));
    const candidates = await this.repo.candidates(horizon);
    const due: (ReminderClaim & { candidate: ReminderCandidate })[] = [];
    for (const c of candidates) {
      const kind = dueReminder(c, now);
      if (kind) due.push({ user_id: c.user_id, course_id: c.course_id, cycle: c.cycle, kind, candidate: c });
    }
    if (due.length === 0) return 0;
    const won = await this.uow.run(() =>
      this.repo.claim(
        due.map(({ candidate: _c, ...claim }) => claim),
        iso(now),
      ),
    );
    const byKey = new Map(due.map((d) => [`${d.user_id}:${d.course_id}:${d.cycle}:${d.kind}`, d.candidate]));
    const outgoing: Outgoing[] = [];
    for (const w of won) {
      const c = byKey.get(`${w.user_id}:${w.course_id}:${w.cycle}:${w.kind}`);
      if (!c) continue;
      outgoing.push({
        claim: { reminder: w },
        compose: () => ({
          ...deadlineReminderMail(this.mail, c.email, {
            kind: w.kind,
            name: c.first_name,
            courseId: c.course_id,
            course: c.title,
            deadline: c.deadline,
          }),
          audit: { kind: w.kind, user_id: c.user_id, course_id: c.course_id },
        }),
      });
    }
    this.#handOver(outgoing);
    return won.length;
  }

  private async digest(): Promise<number> {
    const now = this.clock.now();
    const week = weekOf(now);
    let sent = 0;
    for (const r of await this.repo.digestRecipients(week)) {
      const viewer: SessionUser = {
        id: r.id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        role: r.role_code as SessionUser['role'],
        role_name: r.role_name,
        department_id: r.department_id,
      };
      const entries = await this.analytics.attention(viewer);
      // With nothing to say the week is recorded as handled and no mail goes.
      const claimed = await this.uow.run(() => this.repo.claimDigest(r.id, week, entries.length > 0, iso(now)));
      if (!claimed || entries.length === 0) continue;
      this.#handOver([
        {
          claim: { digest: { user_id: r.id, week } },
          compose: () => ({
            ...teamDigestMail(this.mail, r.email, {
              name: r.first_name,
              companyWide: r.role_code === 'admin',
              entries,
            }),
            audit: { kind: 'manager_digest', user_id: r.id, course_id: null },
          }),
        },
      ]);
      sent++;
    }
    return sent;
  }
}
