import {
  formatCount,
  SIGN_IN_METHOD_LABELS,
  SIGN_IN_METHODS,
  SIGN_IN_SETTINGS_MESSAGES,
  type RuForms,
} from '@lms/contract';

/** Texts of the sign-in tab (Настройка школы → Вход, issue 33). */

/** 'Всего: 1 попытка входа', '2 попытки входа', '5 попыток входа': failures are counted too. */
const ATTEMPTS: RuForms = ['попытка входа', 'попытки входа', 'попыток входа'];

export const SIGN_IN_TEXTS = {
  tab: 'Вход',

  // the ways in and the setting
  methodsTitle: 'Способы входа',
  methodsIntro:
    'Как сотрудники входят на платформу. Вход через Active Directory и корпоративный аккаунт включаются в настройках сервера — переменными окружения, а не здесь.',
  password: SIGN_IN_METHOD_LABELS.password,
  passwordHint: 'Почта и пароль, которые выдала платформа. Доступен всегда.',
  passwordHintSsoOnly: 'Только для учётных записей, созданных вручную во вкладке «Сотрудники».',
  ldap: SIGN_IN_METHOD_LABELS.ldap,
  ldapHint: 'Сотрудник вводит свой доменный пароль в обычную форму входа. Включается переменной LDAP_AUTH.',
  oidc: `${SIGN_IN_METHOD_LABELS.oidc} (OpenID Connect)`,
  oidcHint:
    'Кнопка на странице входа ведёт на страницу входа компании. Настраивается переменными OIDC_ISSUER, OIDC_CLIENT_ID и OIDC_CLIENT_SECRET.',
  configured: 'Настроен',
  notConfigured: 'Не настроен',
  ssoOnly: 'Только вход через SSO',
  ssoOnlyHint:
    'Сотрудники, импортированные из файла, синхронизированные с каталогом или созданные при первом входе через провайдера, не смогут войти по паролю платформы, и восстановить пароль они тоже не смогут. Учётные записи, созданные вручную во вкладке «Сотрудники», сохранят свой пароль — например, ваша учётная запись администратора.',
  /** Why the switch cannot be turned on: the contract's own refusal. */
  ssoOnlyUnavailable: SIGN_IN_SETTINGS_MESSAGES.noSso,
  /** On, while the server no longer has a way in but the password (its settings were changed since). */
  ssoOnlyWithoutSso:
    'Вход через SSO на сервере больше не настроен: сотрудники из файла и из каталога сейчас не могут войти. Выключите настройку или снова настройте Active Directory или корпоративный аккаунт.',
  saved: SIGN_IN_SETTINGS_MESSAGES.saved,
  saveError: 'Не удалось сохранить настройку входа',

  // the journal
  journalTitle: 'Журнал входов',
  journalIntro:
    'Каждая попытка войти на платформу: кто, каким способом, откуда и чем она закончилась. Отказ — повод присмотреться, если их много у одного сотрудника или с одного адреса.',
  colTime: 'Время',
  colPerson: 'Сотрудник',
  colMethod: 'Способ',
  colResult: 'Результат',
  colOrigin: 'IP-адрес и браузер',
  /** The one column of a phone's layout. */
  colEntry: 'Вход',
  search: 'Сотрудник или логин',
  method: 'Способ входа',
  allMethods: 'Все способы',
  result: 'Результат входа',
  allResults: 'Все',
  successes: 'Успешные',
  failures: 'Отказы',
  success: 'Успешно',
  failure: 'Отказ',
  empty: 'Входов пока нет',
  total: (n: number) => `Всего: ${formatCount(n, ATTEMPTS)}`,
  /** The count of a filtered journal. */
  found: (n: number) => `Найдено: ${formatCount(n, ATTEMPTS)}`,
  pages: 'Страницы журнала входов',
  shown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
} as const;

/** The method select's choices: every method first, then each as the contract names it. */
export const ALL = 'all';
export const METHOD_OPTIONS = [
  { value: ALL, label: SIGN_IN_TEXTS.allMethods },
  ...SIGN_IN_METHODS.map((m) => ({ value: m, label: SIGN_IN_METHOD_LABELS[m] })),
];

export const SIGN_IN_RESULTS = ['success', 'failure'] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];
export const RESULT_OPTIONS = [
  { value: ALL, label: SIGN_IN_TEXTS.allResults },
  { value: 'success', label: SIGN_IN_TEXTS.successes },
  { value: 'failure', label: SIGN_IN_TEXTS.failures },
];
