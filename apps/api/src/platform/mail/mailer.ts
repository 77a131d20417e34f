import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../privateFiles.js';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
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
  /** Resolves when every queued message is delivered or has given up (tests, shutdown). */
  idle(): Promise<void>;
}

type Deliver = (message: MailMessage) => Promise<void>;

export class BackgroundMailer implements Mailer {
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly deliver: Deliver,
    private readonly log: MailLog,
    private readonly retryDelaysMs: readonly number[] = [1000, 5000, 30000],
  ) {}

  send(message: MailMessage): void {
    const job = this.#attempt(message).finally(() => this.#pending.delete(job));
    this.#pending.add(job);
  }

  async #attempt(message: MailMessage): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deliver(message);
        this.log.info({ to: message.to, subject: message.subject }, 'mail sent');
        return;
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined) {
          this.log.error({ to: message.to, subject: message.subject, err }, 'mail failed, giving up');
          return;
        }
        this.log.error({ to: message.to, subject: message.subject, attempt: attempt + 1 }, 'mail failed, will retry');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
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

/** Keeps messages in memory; for tests that read what was "sent". */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  send(message: MailMessage): void {
    this.sent.push(message);
  }
  async idle(): Promise<void> {}
  last(to?: string): MailMessage | undefined {
    const list = to ? this.sent.filter((m) => m.to === to) : this.sent;
    return list[list.length - 1];
  }
}
