import { z } from 'zod';
import { dbIdParam, safeText } from './common.js';
import { EXPORT_FORMATS, isTimeZone } from './exports.js';

/**
 * Certificates of completion (issue 35, docs/rules.md §Certificates): issued when a learner completes
 * a course that gives one, one per cycle; printable (PDF) and verifiable by anyone who holds the number.
 */

const ok = z.literal(true);

/** 'C-' and three groups of four characters without look-alikes (0/O, 1/I): 60 random bits. */
export const CERTIFICATE_NUMBER = /^C-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
export const certificateNumber = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.string().regex(CERTIFICATE_NUMBER, 'Неверный номер сертификата'));
export const certificateParams = z.object({ number: certificateNumber });

export const DEFAULT_CERTIFICATE_TITLE = 'Сертификат';

/** A course's certificate settings (course settings, 'Сертификат'). */
export const certificateSettings = z.object({
  enabled: z.boolean(),
  title: z.string(),
  signer_name: z.string().nullable(),
  signer_position: z.string().nullable(),
  /** The logo's address, or null. */
  logo: z.string().nullable(),
});
export type CertificateSettings = z.infer<typeof certificateSettings>;
export const certificateSettingsParams = z.object({ courseId: dbIdParam });
/** GET /api/courses/{courseId}/certificate */
export const certificateSettingsResponse = z.object({
  result: z.object({ success: ok, settings: certificateSettings }),
});
/** PUT /api/courses/{courseId}/certificate: `logo: null` removes the logo; the logo is uploaded by POST …/logo. */
export const saveCertificateSettingsRequest = z.object({
  enabled: z.boolean(),
  title: safeText(120, { required: 'Введите название сертификата' }),
  signer_name: safeText(120).nullable().optional(),
  signer_position: safeText(120).nullable().optional(),
  logo: z.null().optional(),
});
export const saveCertificateSettingsResponse = z.object({
  result: z.object({ success: ok, message: z.string(), settings: certificateSettings, issued: z.number().int() }),
});

export const CERTIFICATE_STATUSES = ['valid', 'expired', 'revoked'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
export const CERTIFICATE_STATUS_TEXT: Record<CertificateStatus, string> = {
  valid: 'Действителен',
  expired: 'Срок действия истек',
  revoked: 'Отозван',
};

/** A certificate as lists show it. */
export const certificateItem = z.object({
  number: z.string(),
  title: z.string(),
  user_id: z.number().int(),
  learner_name: z.string(),
  course_id: z.number().int(),
  course_title: z.string(),
  completed_at: z.string(),
  valid_until: z.string().nullable(),
  issued_at: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  revoked_at: z.string().nullable(),
  revoke_reason: z.string().nullable(),
  department: z.string().nullable(),
  /** The PDF (for its learner, their managers and admins). */
  pdf_url: z.string(),
  /** The public verification page. */
  verify_url: z.string(),
});
export type CertificateItem = z.infer<typeof certificateItem>;
/** GET /api/my/certificates, GET /api/analytics/users/{id}/certificates */
export const certificatesResponse = z.object({ result: z.object({ success: ok, items: z.array(certificateItem) }) });

/** GET /api/admin/certificates: filters in the address, 50 a page, newest first. */
export const adminCertificatesQuery = z.object({
  course_id: dbIdParam.optional(),
  department_id: dbIdParam.optional(),
  status: z.enum(CERTIFICATE_STATUSES).optional(),
  search: safeText(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AdminCertificatesQuery = z.infer<typeof adminCertificatesQuery>;
export const adminCertificatesResponse = z.object({
  result: z.object({
    success: ok,
    items: z.array(certificateItem),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
  }),
});
export const CERTIFICATES_PER_PAGE = 50;
/** At most this many PDFs in one archive. */
export const CERTIFICATES_PER_ARCHIVE = 500;
/** GET /api/admin/certificates/export: the list's filters, every page. */
export const certificatesExportQuery = adminCertificatesQuery.omit({ page: true }).extend({
  format: z.enum(EXPORT_FORMATS).default('xlsx'),
  tz: z.string().max(64).refine(isTimeZone, 'Неизвестный часовой пояс').optional(),
});
export type CertificatesExportQuery = z.infer<typeof certificatesExportQuery>;
/** GET /api/admin/certificates/archive: the list's filters, the PDFs as one .zip. */
export const certificatesArchiveQuery = adminCertificatesQuery.omit({ page: true });

/** POST /api/admin/certificates/{number}/revoke */
export const revokeCertificateRequest = z.object({
  reason: safeText(500, { required: 'Укажите причину отзыва', multiline: true }),
});
export const revokeCertificateResponse = z.object({
  result: z.object({ success: ok, message: z.string(), certificate: certificateItem }),
});

/** GET /api/certificates/verify/{number}: public; nothing about the person but the name. */
export const certificateVerification = z.object({
  number: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  title: z.string(),
  learner_name: z.string(),
  course_title: z.string(),
  completed_at: z.string(),
  valid_until: z.string().nullable(),
  issued_at: z.string(),
  revoked_at: z.string().nullable(),
  revoke_reason: z.string().nullable(),
  company_name: z.string(),
});
export type CertificateVerification = z.infer<typeof certificateVerification>;
export const certificateVerificationResponse = z.object({
  result: z.object({ success: ok, certificate: certificateVerification }),
});

export const CERTIFICATE_MESSAGES = {
  saved: 'Настройки сертификата сохранены',
  notFound: 'Сертификат не найден',
  revoked: 'Сертификат отозван',
  alreadyRevoked: 'Сертификат уже отозван',
  tooManyForArchive: `В архив можно собрать не более ${CERTIFICATES_PER_ARCHIVE} сертификатов. Уточните фильтры`,
  noneForArchive: 'Нет сертификатов для архива',
  logoSaved: 'Логотип загружен',
} as const;
