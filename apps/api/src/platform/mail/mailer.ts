import type { MailKind } from '@lms/contract';

/** What a mail is about, for the mail log (issue 16): its kind, and the user and course it concerns. */
export interface MailAuditInfo {
  kind: MailKind;
  user_id: number | null;
  course_id: number | null;
}

/** A composed mail (platform/mail/templates.ts). */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** A mail as it is queued: every mail the platform sends is in the mail log, with its kind. */
export type AuditedMail = MailMessage & { audit: MailAuditInfo };

/**
 * How services send mail (issue 30): `send` stores the mail in the outbox (modules/mail/outbox.ts) —
 * in the caller's transaction when there is one, so that the mail exists exactly when what it tells
 * of does — and delivery follows in the background, retried until it succeeds or its time is up. The
 * HTTP answer waits for the row, never for the mail server.
 */
export interface Mailer {
  send(message: AuditedMail): Promise<void>;
}

/**
 * What actually hands a mail over: SMTP, the .eml folder (transport.ts), or a test's capture. It gets
 * the mail with what it is about, which only a test's capture reads.
 */
export interface MailTransport {
  deliver(message: AuditedMail): Promise<void>;
}
