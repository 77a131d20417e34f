import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../../lib/privateFiles.js';
import type { MailTransport } from './mailer.js';

/**
 * How long one SMTP delivery may take at most: connecting (DNS included), the greeting, and any
 * silence of the server afterwards. A delivery must end well within the outbox's lease (outbox.ts),
 * or another process could take the mail while this one still talks to the server.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

/** SMTP when MAIL_HOST is set; otherwise each message becomes an .eml file in DATA_DIR/mail. */
export function createTransport(config: Config): MailTransport {
  const from = config.mail.from;
  if (config.mail.host) {
    const transport: Transporter = nodemailer.createTransport({
      host: config.mail.host,
      port: config.mail.port,
      secure: config.mail.secure,
      ...SMTP_TIMEOUTS,
      ...(config.mail.user ? { auth: { user: config.mail.user, pass: config.mail.password ?? '' } } : {}),
    });
    return {
      deliver: async (m) => {
        await transport.sendMail({ from, to: m.to, subject: m.subject, html: m.html, text: m.text });
      },
    };
  }
  const dir = join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let dirReady = false;
  return {
    deliver: async (m) => {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, html: m.html, text: m.text });
      // The mails hold passwords and codes: owner-only, also a folder an older version made.
      ensurePrivateDir(dir, { tighten: !dirReady });
      dirReady = true;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(dir, name), info.message as Buffer, { mode: PRIVATE_FILE_MODE });
    },
  };
}

/** Why a try failed, in Russian for the mail log, and whether trying again could help. */
export interface DeliveryFailure {
  reason: string;
  /** The server refused this mail for good (an SMTP 5yz reply): it is not tried again. */
  permanent: boolean;
}

const REASON_MAX = 300;
const UNREACHABLE = new Set([
  'ECONNECTION',
  'ECONNREFUSED',
  'ECONNRESET',
  'ESOCKET',
  'EDNS',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * Reads an error of a delivery (nodemailer's codes and SMTP replies). Only an SMTP reply that RFC 5321
 * makes permanent gives a mail up at once; an unreachable server, a timeout, a refused login or a
 * temporary reply are retried, since the outage or the configuration may be fixed meanwhile.
 */
export function deliveryFailure(error: unknown): DeliveryFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    permanent?: unknown;
    message?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const reply = typeof e.response === 'string' ? e.response.trim() : '';
  const cut = (text: string) => (text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text);
  if (code === 'EAUTH' || code === 'ENOAUTH')
    return {
      reason: 'Почтовый сервер не принял имя пользователя или пароль (MAIL_USER, MAIL_PASSWORD)',
      permanent: false,
    };
  if (responseCode !== undefined) {
    const permanent = e.permanent === true || (responseCode >= 500 && responseCode < 600 && responseCode !== 503);
    const said = cut(reply || String(responseCode));
    return permanent
      ? { reason: `Почтовый сервер отказался принять письмо: ${said}`, permanent: true }
      : { reason: `Почтовый сервер временно не принял письмо: ${said}`, permanent: false };
  }
  if (code === 'ETIMEDOUT') return { reason: 'Почтовый сервер не ответил вовремя', permanent: false };
  if (UNREACHABLE.has(code)) return { reason: 'Почтовый сервер недоступен', permanent: false };
  const message = typeof e.message === 'string' ? e.message : String(error);
  return { reason: cut(`Не удалось отправить письмо: ${message}`), permanent: false };
}
