import type { CertificateStatus } from '@lms/contract';

/** The public verification page (/verify/{number}, issue 35). */
export const VERIFY_TEXTS = {
  pageTitle: 'Проверка сертификата',
  checking: 'Проверяем сертификат…',
  notFound: 'Сертификат не найден',
  notFoundHint: 'Проверьте номер: он напечатан на сертификате под QR-кодом.',
  tooMany: 'Слишком много проверок',
  tooManyHint: 'Попробуйте через минуту.',
  failed: 'Не удалось проверить сертификат',
  retry: 'Повторить',
  learner: 'Выдан',
  course: 'Курс',
  completed: 'Дата завершения',
  validUntil: 'Действителен до',
  forever: 'Бессрочно',
  number: 'Номер',
  reason: 'Причина отзыва',
  revokedAt: 'Дата отзыва',
} as const;

export const VERIFY_STATE_TEXT: Record<CertificateStatus, string> = {
  valid: 'Сертификат действителен',
  expired: 'Срок действия сертификата истек',
  revoked: 'Сертификат отозван',
};
