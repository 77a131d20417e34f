import { formatCount, pluralRu, type RuForms } from '@lms/contract';

const CERTIFICATE_FORMS: RuForms = ['сертификат', 'сертификата', 'сертификатов'];
const ISSUED_FORMS: RuForms = ['Выдан', 'Выдано', 'Выдано'];

/** The course settings' 'Сертификат' card (issue 35). */
export const CERTIFICATE_CARD_TEXTS = {
  section: 'Сертификат',
  enabled: 'Выдавать сертификат',
  enabledHint: 'Сертификат выдается, когда сотрудник завершает курс. Его можно скачать в PDF и проверить по номеру.',
  title: 'Название сертификата',
  titleRequired: 'Введите название сертификата',
  signer: 'Подписант',
  signerPlaceholder: 'Фамилия Имя Отчество',
  signerPosition: 'Должность подписанта',
  logo: 'Логотип компании',
  logoHint: 'PNG или JPEG, до 20 МБ. Печатается в углу сертификата.',
  logoUpload: 'Загрузить логотип',
  logoReplace: 'Заменить',
  logoRemove: 'Удалить',
  logoRemoved: 'Логотип удален',
  logoBadType: 'Логотип должен быть в формате PNG или JPEG',
  logoTooLarge: 'Файл больше 20 МБ',
  logoError: 'Не удалось загрузить логотип',
  save: 'Сохранить сертификат',
  saveError: 'Не удалось сохранить настройки сертификата',
  loadError: 'Не удалось загрузить настройки сертификата',
  retry: 'Повторить',
  loading: 'Загрузка настроек сертификата…',
} as const;

/** 'Выдан 1 сертификат', 'Выдано 3 сертификата', 'Выдано 5 сертификатов' — to those who had already completed. */
export function issuedText(count: number): string {
  return `${pluralRu(count, ISSUED_FORMS)} ${formatCount(count, CERTIFICATE_FORMS)} тем, кто уже завершил курс`;
}
