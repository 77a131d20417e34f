import {
  adminCertificatesResponse,
  CERTIFICATE_STATUSES,
  CERTIFICATES_PER_PAGE,
  formatCount,
  revokeCertificateResponse,
  type CertificateItem,
  type CertificateStatus,
  type RuForms,
} from '@lms/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { parseAnswer } from '../../lib/answer';
import { resultMessage, UnsuccessfulAnswer } from '../../lib/errors';
import { http } from '../../lib/http';
import { cleanSearch, SIGN_INS_SEARCH_DEBOUNCE_MS } from './signIns';

const CERTIFICATE_FORMS: RuForms = ['сертификат', 'сертификата', 'сертификатов'];

/** Texts of the certificates tab (issue 35). */
export const CERTIFICATES_TEXTS = {
  tab: 'Сертификаты',
  intro:
    'Сертификаты, выданные за завершение курсов. Отозванный сертификат при проверке по номеру показывается как отозванный, с причиной.',
  search: 'Поиск по ФИО или номеру',
  course: 'Курс',
  allCourses: 'Все курсы',
  department: 'Подразделение',
  allDepartments: 'Все подразделения',
  status: 'Статус',
  allStatuses: 'Все статусы',
  colNumber: 'Номер',
  colEmployee: 'Сотрудник',
  colDepartment: 'Подразделение',
  colCourse: 'Курс',
  colCompleted: 'Завершен',
  colValidUntil: 'Действителен до',
  colStatus: 'Статус',
  colActions: 'Действия',
  colCertificate: 'Сертификат',
  noDepartment: '—',
  empty: 'Сертификатов пока нет',
  pages: 'Страницы списка сертификатов',
  total: (count: number) => formatCount(count, CERTIFICATE_FORMS),
  shown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
  pdf: 'PDF',
  pdfLabel: (number: string) => `Скачать PDF сертификата ${number}`,
  revoke: 'Отозвать',
  revokeLabel: (number: string) => `Отозвать сертификат ${number}`,
  revokeTitle: 'Отозвать сертификат',
  revokeMessage: (number: string, name: string) =>
    `Сертификат ${number} (${name}) станет недействительным. Это нельзя отменить.`,
  reason: 'Причина отзыва',
  reasonPlaceholder: 'Например: выдан по ошибке',
  reasonRequired: 'Укажите причину отзыва',
  revokeError: 'Не удалось отозвать сертификат',
  archive: 'Скачать архив PDF',
  archiveError: 'Не удалось собрать архив',
  loadError: 'Не удалось загрузить сертификаты',
} as const;

export interface CertificateFilters {
  course_id?: string;
  department_id?: string;
  status?: CertificateStatus;
  search?: string;
}

const isId = (value: string | null): value is string => value !== null && /^[1-9]\d{0,9}$/.test(value);

/** The filters and page of an address; anything unreadable is no filter. */
export function certificateFiltersOf(params: URLSearchParams): { filters: CertificateFilters; page: number } {
  const course = params.get('course_id');
  const department = params.get('department_id');
  const status = CERTIFICATE_STATUSES.find((s) => s === params.get('status'));
  const search = cleanSearch(params.get('search') ?? '');
  const page = Number(params.get('page'));
  return {
    filters: {
      course_id: isId(course) ? course : undefined,
      department_id: isId(department) ? department : undefined,
      status,
      search: search || undefined,
    },
    page: Number.isSafeInteger(page) && page > 1 && page <= 100_000 ? page : 1,
  };
}

/** The filters as query parameters, the empty ones left out. */
export function certificateParams(filters: CertificateFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));
}

/**
 * The tab's filters and page, kept in the address (`/settings/certificates?status=revoked&page=2`),
 * as the sign-in journal keeps its own: the search reaches the address once the typing pauses.
 */
export function useCertificateFilters() {
  const [params, setParams] = useSearchParams();
  const { filters, page } = certificateFiltersOf(params);
  const [search, setSearch] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(cleanSearch(search), SIGN_INS_SEARCH_DEBOUNCE_MS);
  const go = (next: CertificateFilters, nextPage: number, replace = false) => {
    const query = certificateParams(next);
    if (nextPage > 1) query.page = String(nextPage);
    setParams(query, { replace });
  };
  const shown = filters.search ?? '';
  // the search this box last put in the address, so that it is not shown back into the box
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (debounced === shown) return;
    sent.current = debounced;
    go({ ...filters, search: debounced || undefined }, 1, true);
    // only a settled search sends: the address changing is not a reason to send it again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  useEffect(() => {
    if (shown === sent.current) {
      sent.current = null;
      return;
    }
    setSearch(shown);
  }, [shown]);
  return {
    filters,
    page,
    search,
    setSearch,
    set: (change: Partial<CertificateFilters>) => go({ ...filters, ...change }, 1),
    setPage: (next: number) => go(filters, next),
  };
}

const certificatesKey = ['settings', 'certificates'] as const;

/** GET /api/admin/certificates: one page of 50, newest first. */
export const certificatesPageQuery = (filters: CertificateFilters, page: number) =>
  queryOptions({
    queryKey: [...certificatesKey, filters, page] as const,
    queryFn: async () => {
      const query = new URLSearchParams(certificateParams(filters));
      query.set('page', String(page));
      const { data } = await http.get<unknown>(`/api/admin/certificates?${query.toString()}`);
      return parseAnswer(adminCertificatesResponse, data).result;
    },
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

export function useCertificatesPage(filters: CertificateFilters, page: number) {
  return useQuery(certificatesPageQuery(filters, page));
}

export const CERTIFICATES_PAGE_SIZE = CERTIFICATES_PER_PAGE;

/** POST /api/admin/certificates/{number}/revoke: the row shows 'Отозван' at once, the list is read again. */
export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ number, reason }: { number: string; reason: string }) => {
      const { data } = await http.post<unknown>(`/api/admin/certificates/${encodeURIComponent(number)}/revoke`, {
        reason: reason.trim(),
      });
      return parseAnswer(revokeCertificateResponse, data).result;
    },
    onSuccess: ({ certificate }) => {
      queryClient.setQueriesData<{ items: CertificateItem[] }>({ queryKey: certificatesKey }, (page) =>
        page
          ? { ...page, items: page.items.map((item) => (item.number === certificate.number ? certificate : item)) }
          : page,
      );
      void queryClient.invalidateQueries({ queryKey: certificatesKey });
    },
  });
}

/** The reason of a refused download (the server's 422 `result.message`), when the body says one. */
async function refusal(answer: Response): Promise<UnsuccessfulAnswer> {
  let body: unknown;
  try {
    body = await answer.json();
  } catch {
    // not JSON: no reason of its own
  }
  return new UnsuccessfulAnswer(resultMessage(body));
}

/**
 * GET /api/admin/certificates/archive with the filters, saved as a file. Fetched rather than
 * followed as a link, so that a refusal (none, or more than 500) shows its reason instead of a
 * page of JSON.
 */
export async function downloadArchive(filters: CertificateFilters): Promise<void> {
  const query = new URLSearchParams(certificateParams(filters)).toString();
  const answer = await fetch(`/api/admin/certificates/archive${query ? `?${query}` : ''}`, {
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!answer.ok) throw await refusal(answer);
  const url = URL.createObjectURL(await answer.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'Сертификаты.zip';
  document.body.append(link);
  link.click();
  link.remove();
  // kept a while: the browser reads the file after the click returns
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
