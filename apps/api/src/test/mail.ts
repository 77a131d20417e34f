import type { AuditedMail, MailTransport } from '../platform/mail/mailer.js';

/**
 * A transport for tests: keeps what the outbox delivered, in order. The app's real outbox runs in
 * front of it (rows, leases, statuses); `idle()` waits for the app's delivery pass, which the harness
 * connects (`settleWith`), so that tests read the mails a request caused right after it.
 */
export class CapturingTransport implements MailTransport {
  readonly sent: AuditedMail[] = [];
  #settle: () => Promise<void> = () => Promise.resolve();

  async deliver(message: AuditedMail): Promise<void> {
    this.sent.push(message);
  }

  settleWith(settle: () => Promise<void>): void {
    this.#settle = settle;
  }

  /** Resolves once the app's delivery pass under way (if any) has ended. */
  idle(): Promise<void> {
    return this.#settle();
  }

  last(to?: string): AuditedMail | undefined {
    const list = to ? this.sent.filter((m) => m.to === to) : this.sent;
    return list[list.length - 1];
  }
}
