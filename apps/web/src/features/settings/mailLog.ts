import { MAIL_LOG_PER_PAGE_DEFAULT, mailLogResponse, type MailKind, type MailLogItem } from '@lms/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** Texts of the mail log tab (issue 16). */
export const MAIL_LOG_TEXTS = {
  tab: 'Журнал писем',
  intro: 'Каждое отправленное платформой письмо: кому, о чём и когда.',
  colRecipient: 'Получатель',
  colKind: 'Тип',
  colCourse: 'Курс',
  colSent: 'Отправлено',
  empty: 'Писем пока нет',
  noCourse: '—',
  pages: 'Страницы журнала писем',
  shown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
} as const;

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

const sentFormat = new Intl.DateTimeFormat('ru-RU', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 'дд.мм.гггг, чч:мм' in the browser's time zone; the raw text when it is not a date. */
export function formatSentAt(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : sentFormat.format(date);
}

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
