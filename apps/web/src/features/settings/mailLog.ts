import {
  MAIL_LOG_PER_PAGE_DEFAULT,
  mailLogResponse,
  type MailKind,
  type MailLogItem,
  type MailStatus,
} from '@lms/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** Texts of the mail log tab (issues 16, 30). */
export const MAIL_LOG_TEXTS = {
  tab: 'Журнал писем',
  intro:
    'Каждое письмо платформы: кому, о чём, когда и дошло ли. Письмо, которое не удалось отправить, платформа повторяет в течение суток; после этого его можно отправить снова.',
  colRecipient: 'Получатель',
  colKind: 'Тип',
  colCourse: 'Курс',
  colStatus: 'Статус',
  colTime: 'Время',
  /** The one column of a phone's layout. */
  colMail: 'Письмо',
  empty: 'Писем пока нет',
  noCourse: '—',
  pages: 'Страницы журнала писем',
  shown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
  lastTryFailed: (reason: string) => `Последняя попытка не удалась: ${reason}`,
  nextTry: (at: string) => `Следующая попытка: ${at}`,
  resend: 'Отправить снова',
  resendLabel: (recipient: string) => `Отправить снова письмо для ${recipient}`,
  resent: 'Письмо снова поставлено в очередь на отправку',
  resendError: (message: string) => `Не удалось отправить письмо снова: ${message}`,
} as const;

/** How each status is called and coloured: sent green, waiting grey-blue, not sent red. */
export const MAIL_STATUS_LABELS: Record<MailStatus, string> = {
  queued: 'В очереди',
  sent: 'Отправлено',
  failed: 'Не отправлено',
};
export const MAIL_STATUS_COLORS: Record<MailStatus, string> = { queued: 'blue', sent: 'green', failed: 'red' };

/** What each kind of mail is called in the list. */
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  new_user_password: 'Пароль нового сотрудника',
  password_recovery: 'Восстановление пароля',
  new_password: 'Новый пароль',
  reminder_almost_overdue: 'Срок скоро истекает',
  reminder_overdue: 'Срок истёк',
  reminder_new_cycle: 'Новый цикл обучения',
  manager_digest: 'Сводка руководителю',
};

/** The badge colour of a kind: passwords grey, reminders by urgency, the digest in the brand colour. */
export const MAIL_KIND_COLORS: Record<MailKind, string> = {
  new_user_password: 'gray',
  password_recovery: 'gray',
  new_password: 'gray',
  reminder_almost_overdue: 'orange',
  reminder_overdue: 'red',
  reminder_new_cycle: 'green',
  manager_digest: 'brand',
};

export const MAIL_LOG_PER_PAGE = MAIL_LOG_PER_PAGE_DEFAULT;

const sentFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * 'дд.мм.гггг, чч:мм' on the company's clock (GET /api/config's `time_zone`), as the mails and the
 * server's other dates; the browser's own until the config is known. The raw text when not a date.
 */
export function formatSentAt(value: string, timeZone?: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  let format = sentFormats.get(timeZone ?? '');
  if (!format) {
    format = new Intl.DateTimeFormat('ru-RU', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(timeZone ? { timeZone } : {}),
    });
    sentFormats.set(timeZone ?? '', format);
  }
  return format.format(date);
}

/** The time a row shows: when it was delivered, or, not yet delivered, when it was queued. */
export const mailTime = (mail: Pick<MailLogItem, 'sent_at' | 'queued_at'>): string => mail.sent_at ?? mail.queued_at;

export interface MailLogPage {
  items: MailLogItem[];
  total: number;
  page: number;
  per_page: number;
}

export const mailLogKeys = {
  all: ['settings', 'mail-log'] as const,
  page: (page: number, perPage: number) => ['settings', 'mail-log', page, perPage] as const,
};

/** GET /api/admin/mail-log?page=…&per_page=…: one page, newest first. */
export const mailLogQuery = (page: number, perPage = MAIL_LOG_PER_PAGE) =>
  queryOptions({
    queryKey: mailLogKeys.page(page, perPage),
    queryFn: async (): Promise<MailLogPage> => {
      const params = new URLSearchParams({ page: String(page), per_page: String(perPage) });
      const answer = parseAnswer(mailLogResponse, (await http.get<unknown>(`/api/admin/mail-log?${params}`)).data);
      return { items: answer.items, total: answer.total, page: answer.page, per_page: answer.per_page };
    },
    // the rows of the page before stay while the next one loads, so the table does not flash
    placeholderData: keepPreviousData,
  });

export function useMailLog(page: number, perPage = MAIL_LOG_PER_PAGE) {
  return useQuery(mailLogQuery(page, perPage));
}

/** POST /api/admin/mail-log/{id}/resend: a failed mail goes back to the outbox; the log is read again. */
export function useResendMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await http.post<unknown>(`/api/admin/mail-log/${id}/resend`)).data,
    onSettled: () => client.invalidateQueries({ queryKey: mailLogKeys.all }),
  });
}
