import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_PER_PAGE_DEFAULT,
  AUDIT_SOURCE_LABELS,
  AUDIT_SOURCES,
  auditResponse,
  type AuditAction,
  type AuditEntry,
  type AuditSource,
} from '@lms/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** Texts of the audit tab (issue 32). */
export const AUDIT_TEXTS = {
  tab: 'Журнал изменений',
  intro:
    'Кто и когда добавил, изменил или удалил сотрудника, назначил курс или снял назначение — вручную, импортом из файла или синхронизацией с каталогом.',
  colTime: 'Время',
  colActor: 'Кто',
  colAction: 'Действие',
  colSubject: 'Кого касается',
  colChanges: 'Изменения',
  /** The one column of a phone's layout. */
  colEntry: 'Изменение',
  search: 'Сотрудник или кто изменил',
  action: 'Действие',
  allActions: 'Все действия',
  source: 'Источник',
  allSources: 'Все источники',
  empty: 'Изменений пока нет',
  course: (name: string) => `Курс «${name}»`,
  pages: 'Страницы журнала изменений',
  shown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
} as const;

/** What the badge of each action says and its colour: added green, changed blue, deleted red, courses apart. */
export const AUDIT_ACTION_COLORS: Record<AuditAction, string> = {
  user_created: 'green',
  user_updated: 'blue',
  user_deleted: 'red',
  course_assigned: 'teal',
  course_unassigned: 'orange',
};

/** The filter selects' choices: 'all' first, then each action or source as the contract names it. */
export const ALL = 'all';
export const ACTION_OPTIONS = [
  { value: ALL, label: AUDIT_TEXTS.allActions },
  ...AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] })),
];
export const SOURCE_OPTIONS = [
  { value: ALL, label: AUDIT_TEXTS.allSources },
  ...AUDIT_SOURCES.map((s) => ({ value: s, label: AUDIT_SOURCE_LABELS[s] })),
];

export const AUDIT_PER_PAGE = AUDIT_PER_PAGE_DEFAULT;

/** The export: every page of the tab's filters, in its order. */
export const AUDIT_EXPORT_PATH = '/api/admin/audit/export';

/**
 * The search is sent this long after the last key: the employees tab's `SEARCH_DEBOUNCE_MS` (a test
 * holds them equal; importing it would load that tab's code with this one).
 */
export const AUDIT_SEARCH_DEBOUNCE_MS = 300;

/** The page's filters as the server takes them; an absent one is not filtered on. */
export interface AuditFilters {
  action?: AuditAction;
  source?: AuditSource;
  search?: string;
}

/** The filters as query parameters of the page and of the export alike, empty ones left out. */
export function auditParams(filters: AuditFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (filters.action) out.action = filters.action;
  if (filters.source) out.source = filters.source;
  if (filters.search) out.search = filters.search;
  return out;
}

export interface AuditPage {
  /** The filters these rows were found for (the next ones may still load). */
  filters: AuditFilters;
  items: AuditEntry[];
  total: number;
  page: number;
  per_page: number;
}

export const auditKeys = {
  all: ['settings', 'audit'] as const,
  page: (filters: AuditFilters, page: number, perPage: number) =>
    ['settings', 'audit', auditParams(filters), page, perPage] as const,
};

/** GET /api/admin/audit?page=…&per_page=…&action=…&source=…&search=…: one page, newest first. */
export const auditQuery = (filters: AuditFilters, page: number, perPage = AUDIT_PER_PAGE) =>
  queryOptions({
    queryKey: auditKeys.page(filters, page, perPage),
    queryFn: async (): Promise<AuditPage> => {
      const params = new URLSearchParams({ page: String(page), per_page: String(perPage), ...auditParams(filters) });
      const answer = parseAnswer(auditResponse, (await http.get<unknown>(`/api/admin/audit?${params}`)).data);
      return { filters, items: answer.items, total: answer.total, page: answer.page, per_page: answer.per_page };
    },
    // the rows shown stay while the next page or filter loads, so the table does not flash
    placeholderData: keepPreviousData,
  });

export function useAudit(filters: AuditFilters, page: number, perPage = AUDIT_PER_PAGE) {
  return useQuery(auditQuery(filters, page, perPage));
}
