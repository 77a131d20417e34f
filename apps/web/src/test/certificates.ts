import type { CertificateItem, CertificateVerification } from '@lms/contract';

/** A certificate as the lists give it (issue 35). */
export function certificateItem(over: Partial<CertificateItem> = {}): CertificateItem {
  const number = over.number ?? 'C-ABCD-EFGH-JKLM';
  return {
    number,
    title: 'Сертификат',
    user_id: 7,
    learner_name: 'Иванов Иван',
    course_id: 101,
    course_title: 'Охрана труда',
    completed_at: '2026-03-12T09:00:00.000Z',
    valid_until: null,
    issued_at: '2026-03-12T09:00:00.000Z',
    status: 'valid',
    revoked_at: null,
    revoke_reason: null,
    department: 'Бухгалтерия',
    pdf_url: `/api/certificates/${number}/pdf`,
    verify_url: `/verify/${number}`,
    ...over,
  };
}

/** The public check's answer for a certificate. */
export function verification(over: Partial<CertificateVerification> = {}): CertificateVerification {
  return {
    number: 'C-ABCD-EFGH-JKLM',
    status: 'valid',
    title: 'Сертификат',
    learner_name: 'Иванов Иван',
    course_title: 'Охрана труда',
    completed_at: '2026-03-12T09:00:00.000Z',
    valid_until: null,
    issued_at: '2026-03-12T09:00:00.000Z',
    revoked_at: null,
    revoke_reason: null,
    company_name: 'ООО «Ромашка»',
    ...over,
  };
}
