import {
  CERTIFICATE_STATUS_TEXT,
  certificatesResponse,
  type CertificateItem,
  type CertificateStatus,
} from '@lms/contract';
import { Badge } from '@mantine/core';
import { queryOptions } from '@tanstack/react-query';
import { parseAnswer } from '../lib/answer';
import { http } from '../lib/http';
import { myCertificatesQueryKey } from './queryKeys';

/** Texts every certificate list shares (issue 35). */
export const CERTIFICATE_TEXTS = {
  download: 'Скачать PDF',
  verify: 'Проверить',
  completed: 'Завершен',
  validUntil: 'Действителен до',
  forever: 'Бессрочно',
  number: 'Номер',
  reason: 'Причина',
} as const;

export const CERTIFICATE_STATUS_COLORS: Record<CertificateStatus, string> = {
  valid: 'green',
  expired: 'orange',
  revoked: 'red',
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An ISO time as a date ('12 марта 2026') in the company's time zone when known, so that a
 * certificate reads the same day to everyone; the browser's zone otherwise.
 */
export function certificateDate(iso: string, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = dateFormats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeZone });
    } catch {
      format = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long' });
    }
    dateFormats.set(key, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date).replace(/\s?г\.$/, '');
}

/** 'Действителен до …' or 'Бессрочно'. */
export function validUntilText(validUntil: string | null, timeZone?: string): string {
  return validUntil ? certificateDate(validUntil, timeZone) : CERTIFICATE_TEXTS.forever;
}

export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  return (
    <Badge
      variant="light"
      color={CERTIFICATE_STATUS_COLORS[status]}
      radius="sm"
      tt="none"
      fw={600}
      styles={{ label: { overflow: 'visible' } }}
    >
      {CERTIFICATE_STATUS_TEXT[status]}
    </Badge>
  );
}

async function fetchCertificates(url: string): Promise<CertificateItem[]> {
  return parseAnswer(certificatesResponse, (await http.get<unknown>(url)).data).result.items;
}

/** GET /api/my/certificates: the learner's own, newest first. */
export const myCertificatesQuery = queryOptions({
  queryKey: myCertificatesQueryKey,
  queryFn: () => fetchCertificates('/api/my/certificates'),
  staleTime: 30_000,
});

/** GET /api/analytics/users/{id}/certificates: an employee's, for their manager or an admin. */
export const employeeCertificatesQuery = (userId: number) =>
  queryOptions({
    queryKey: ['analytics', 'users', userId, 'certificates'] as const,
    queryFn: () => fetchCertificates(`/api/analytics/users/${userId}/certificates`),
    staleTime: 30_000,
  });
