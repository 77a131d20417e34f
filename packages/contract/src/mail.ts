import { z } from 'zod';

/**
 * What a mail was sent for (issue 16): the kind stored with every delivered mail in the mail log.
 * Password mails go to anyone; the reminder kinds are what a learner can turn off in the profile
 * (`reminder_mails`); the digest to a manager is not a reminder and always goes.
 */
export const MAIL_KINDS = [
  'new_user_password',
  'password_recovery',
  'new_password',
  'reminder_almost_overdue',
  'reminder_overdue',
  'reminder_new_cycle',
  'manager_digest',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const mailKind = z.enum(MAIL_KINDS);

/** The kinds a learner's `reminder_mails: false` turns off. */
export const REMINDER_MAIL_KINDS: readonly MailKind[] = [
  'reminder_almost_overdue',
  'reminder_overdue',
  'reminder_new_cycle',
];

export const MAIL_LOG_PER_PAGE_DEFAULT = 50;
export const MAIL_LOG_PER_PAGE_MAX = 200;

/** GET /api/admin/mail-log query: one page, newest first. */
export const mailLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(MAIL_LOG_PER_PAGE_MAX).optional(),
});
export type MailLogQuery = z.infer<typeof mailLogQuery>;

/**
 * Where a mail is (issue 30): waiting in the outbox (also between tries after a failure), delivered,
 * or given up after its retries (or refused by the mail server for good) — an admin may send it again.
 */
export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * One mail of the log. `user_name` and `course_name` are null when the mail had no user or course;
 * `sent_at` is null until it is delivered; `error` is the last failed try's reason (in Russian) and
 * `next_attempt_at` when a queued mail is tried next.
 */
export const mailLogItem = z.object({
  id: z.number().int(),
  recipient: z.string(),
  user_name: z.string().nullable(),
  kind: mailKind,
  course_id: z.number().int().nullable(),
  course_name: z.string().nullable(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  queued_at: z.string(),
  sent_at: z.string().nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type MailLogItem = z.infer<typeof mailLogItem>;

export const mailLogResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  items: z.array(mailLogItem),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type MailLogResponse = z.infer<typeof mailLogResponse>;

/** POST /api/admin/mail-log/{id}/resend: a failed mail goes back to the outbox. */
export const mailResendResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string() }),
  item: mailLogItem,
});
export type MailResendResponse = z.infer<typeof mailResendResponse>;

export const MAIL_LOG_MESSAGES = {
  resent: 'Письмо снова поставлено в очередь на отправку',
  notFound: 'Письмо не найдено',
  notFailed: 'Отправить снова можно только письмо, которое не удалось отправить',
} as const;
