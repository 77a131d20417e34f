import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailKind } from '@lms/contract';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../privateFiles.js';

/** What a mail is about, for the mail log (issue 16): its kind, and the user and course it concerns. */
export interface MailAuditInfo {
  kind: MailKind;
  user_id: number | null;
  course_id: number | null;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** A message with `audit` is written to the mail log once delivered; without it, it is not logged. */
  audit?: MailAuditInfo;
}

/** A delivered message that carries `audit`. */
export type AuditedMail = MailMessage & { audit: MailAuditInfo };

/**
 * Where delivered mails are recorded (modules/mail: the mail log). `record` is called once per
 * delivered message, after delivery; its failure is logged and never makes the mail be sent again.
 */
export interface MailAuditSink {
  record(message: AuditedMail): Promise<void>;
}

export interface MailLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Sends mail in the background: `send` returns at once, delivery is retried a few times and failures
 * are logged (DESIGN.md §6; the HTTP answer never waits for or fails on mail).
 */
export interface Mailer {
  send(message: MailMessage): void;
  /** Messages accepted and not yet delivered or given up: queued, in delivery or waiting to retry. */
  backlog(): number;
  /** Resolves once the backlog is below `limit` (producers of many mails hand them over at this pace). */
  whenBelow(limit: number): Promise<void>;
  /** Resolves when every queued message is delivered or has given up (tests, shutdown). */
  idle(): Promise<void>;
  /** Sets where delivered messages with `audit` are recorded (buildApp sets the mail log). */
  setAuditSink(sink: MailAuditSink | undefined): void;
}

/** Records a delivered message when it carries `audit`; a failure is logged, never thrown. */
async function recordDelivered(
  sink: MailAuditSink | undefined,
  message: MailMessage,
  log: Pick<MailLog, 'error'>,
): Promise<void> {
  if (!sink || !message.audit) return;
  try {
    await sink.record(message as AuditedMail);
  } catch (err) {
    log.error({ to: message.to, subject: message.subject, kind: message.audit.kind, err }, 'mail log failed');
  }
}

type Deliver = (message: MailMessage) => Promise<void>;

interface Queued {
  message: MailMessage;
  /** Failed deliveries so far. */
  failures: number;
}

/** Waiters for the backlog to fall below a limit (`idle` waits for below 1). */
class BacklogWaiters {
  #waiting: { limit: number; resolve: () => void }[] = [];
  wait(limit: number, backlog: number): Promise<void> {
    if (backlog < limit) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ limit, resolve }));
  }
  notify(backlog: number): void {
    if (this.#waiting.length === 0) return;
    const due = this.#waiting.filter((w) => backlog < w.limit);
    this.#waiting = this.#waiting.filter((w) => backlog >= w.limit);
    for (const w of due) w.resolve();
  }
}

/** Deliveries running at once: an SMTP server (or the mail folder) is not flooded by a mass pass. */
export const MAIL_CONCURRENCY = 4;

export class BackgroundMailer implements Mailer {
  /** Waiting messages from `#head` on; the consumed front is dropped in slices, not per shift. */
  #queue: (Queued | undefined)[] = [];
  #head = 0;
  /** In delivery, or failed and waiting for the retry's delay (which holds no delivery slot). */
  #delivering = 0;
  #retrying = 0;
  readonly #waiters = new BacklogWaiters();
  #audit: MailAuditSink | undefined;

  constructor(
    private readonly deliver: Deliver,
    private readonly log: MailLog,
    private readonly retryDelaysMs: readonly number[] = [1000, 5000, 30000],
    private readonly concurrency = MAIL_CONCURRENCY,
  ) {}

  send(message: MailMessage): void {
    this.#queue.push({ message, failures: 0 });
    this.#pump();
  }

  backlog(): number {
    return this.#queue.length - this.#head + this.#delivering + this.#retrying;
  }

  whenBelow(limit: number): Promise<void> {
    return this.#waiters.wait(limit, this.backlog());
  }

  idle(): Promise<void> {
    return this.whenBelow(1);
  }

  setAuditSink(sink: MailAuditSink | undefined): void {
    this.#audit = sink;
  }

  #pump(): void {
    while (this.#delivering < this.concurrency && this.#head < this.#queue.length) {
      const next = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      if (!next) continue;
      this.#delivering++;
      void this.#attempt(next).finally(() => {
        this.#delivering--;
        this.#pump();
        this.#waiters.notify(this.backlog());
      });
    }
  }

  async #attempt(item: Queued): Promise<void> {
    const { message } = item;
    try {
      await this.deliver(message);
    } catch (err) {
      const delay = this.retryDelaysMs[item.failures];
      if (delay === undefined) {
        this.log.error({ to: message.to, subject: message.subject, err }, 'mail failed, giving up');
        return;
      }
      this.log.error(
        { to: message.to, subject: message.subject, attempt: item.failures + 1 },
        'mail failed, will retry',
      );
      this.#retrying++;
      setTimeout(() => {
        this.#retrying--;
        this.#queue.push({ message, failures: item.failures + 1 });
        this.#pump();
      }, delay);
      return;
    }
    // Delivered: from here on nothing sends it again, whatever the log does.
    this.log.info({ to: message.to, subject: message.subject }, 'mail sent');
    await recordDelivered(this.#audit, message, this.log);
  }
}

/** SMTP when MAIL_HOST is set; otherwise each message becomes an .eml file in DATA_DIR/mail. */
export function createTransportDeliver(config: Config): Deliver {
  const from = config.mail.from;
  if (config.mail.host) {
    const transport: Transporter = nodemailer.createTransport({
      host: config.mail.host,
      port: config.mail.port,
      secure: config.mail.secure,
      ...(config.mail.user ? { auth: { user: config.mail.user, pass: config.mail.password ?? '' } } : {}),
    });
    return async (m) => {
      await transport.sendMail({ from, to: m.to, subject: m.subject, html: m.html, text: m.text });
    };
  }
  const dir = join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let dirReady = false;
  return async (m) => {
    const info = await transport.sendMail({ from, to: m.to, subject: m.subject, html: m.html, text: m.text });
    // The mails hold passwords and codes: owner-only, also a folder an older version made.
    ensurePrivateDir(dir, { tighten: !dirReady });
    dirReady = true;
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    await writeFile(join(dir, name), info.message as Buffer, { mode: PRIVATE_FILE_MODE });
  };
}

/**
 * Keeps messages in memory; for tests that read what was "sent". Each message counts as delivered
 * at once and is recorded in the mail log like a real delivery (`await idle()` before reading it).
 */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  readonly #pending = new Set<Promise<void>>();
  #audit: MailAuditSink | undefined;
  constructor(private readonly log: Pick<MailLog, 'error'> = { error: () => {} }) {}
  send(message: MailMessage): void {
    this.sent.push(message);
    const job = recordDelivered(this.#audit, message, this.log).finally(() => this.#pending.delete(job));
    this.#pending.add(job);
  }
  setAuditSink(sink: MailAuditSink | undefined): void {
    this.#audit = sink;
  }
  backlog(): number {
    return this.#pending.size;
  }
  whenBelow(limit: number): Promise<void> {
    return this.backlog() < limit ? Promise.resolve() : this.idle();
  }
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
  last(to?: string): MailMessage | undefined {
    const list = to ? this.sent.filter((m) => m.to === to) : this.sent;
    return list[list.length - 1];
  }
}
