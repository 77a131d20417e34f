import { formatCount, pluralRu, PEOPLE_IMPORT_MAX_BYTES, type PeopleAction, type RuForms } from '@lms/contract';

/** Texts of the employees import (Настройка школы → Сотрудники → 'Импорт', issue 32). */

const EMPLOYEES: RuForms = ['сотрудник', 'сотрудника', 'сотрудников'];
const WHO_ARE_MISSING: RuForms = ['которого нет', 'которых нет', 'которых нет'];
const DEPARTMENTS: RuForms = ['отдел', 'отдела', 'отделов'];
const ROWS_WITH_ERRORS: RuForms = ['строка с ошибкой', 'строки с ошибками', 'строк с ошибками'];
const WILL_BE_SKIPPED: RuForms = ['будет пропущена', 'будут пропущены', 'будут пропущены'];
const WILL_BE_DELETED: RuForms = ['Будет удалён', 'Будут удалены', 'Будут удалены'];
const WILL_BE_CREATED: RuForms = ['Будет создан', 'Будут созданы', 'Будут созданы'];
const WERE_CREATED: RuForms = ['Создан', 'Созданы', 'Созданы'];

const MAX_MB = PEOPLE_IMPORT_MAX_BYTES / 1024 / 1024;

export const IMPORT_TEXTS = {
  /** The button on the employees tab. */
  button: 'Импорт',
  title: 'Импорт сотрудников',
  back: 'Сотрудники',

  // step 1: the file and the choices
  intro:
    'Загрузите таблицу: одна строка — один сотрудник, первая строка — заголовки столбцов в любом порядке. Сотрудник, чей email уже есть в школе, обновится, остальные будут добавлены. Сначала мы проверим файл и покажем, что изменится; ничего не меняется, пока вы не нажмёте «Применить изменения».',
  requiredColumns: 'Обязательные столбцы:',
  optionalColumns: 'Необязательные:',
  roleHint:
    'Роль — Администратор, Автор курсов, Руководитель или Ученик. Без роли новый сотрудник станет учеником, а у остальных роль не изменится.',
  managerHint:
    'Email руководителя — адрес непосредственного руководителя: сотрудника школы или из этого же файла. Без этого столбца руководители не изменятся.',
  template: 'Скачать шаблон:',
  templateXlsx: 'Excel (.xlsx)',
  templateCsv: 'CSV',
  file: 'Файл с сотрудниками',
  filePlaceholder: 'Выберите файл .xlsx или .csv',
  fileHint: `Не больше ${MAX_MB} МБ. CSV — в кодировке UTF-8 или Windows-1251, с разделителем «;» или «,».`,
  createDepartments: 'Создавать отделы',
  createDepartmentsHint:
    'Отделы из файла, которых ещё нет в школе, будут созданы. Без этой отметки строка с незнакомым отделом считается ошибкой.',
  deleteMissing: 'Удалить отсутствующих',
  deleteMissingHint:
    'Сотрудники, которых нет в файле, будут удалены. Их история обучения сохранится, но войти на платформу они больше не смогут.',
  sendWelcome: 'Отправить приглашения',
  sendWelcomeHint: 'Новые сотрудники получат письмо с паролем для входа.',
  check: 'Проверить файл',

  // step 2: sending and checking
  noFile: 'Выберите файл с сотрудниками',
  tooLarge: `Файл больше ${MAX_MB} МБ: разделите его на несколько файлов`,
  uploading: 'Загрузка файла',
  uploadingPercent: (percent: number) => `Загрузка файла: ${percent} %`,
  checking: 'Проверяем файл…',
  checkError: 'Не удалось проверить файл',

  // step 3: what would happen
  checkedDirectory: 'Каталог прочитан. Пока ничего не изменено: посмотрите, что произойдёт, и примените изменения.',
  checked: (name: string | null) =>
    `${name ? `Файл «${name}» проверен` : 'Файл проверен'}. Пока ничего не изменено: посмотрите, что произойдёт, и примените изменения.`,
  options: 'Отмечено:',
  noOptions: 'Ничего не отмечено',
  counts: 'Итоги проверки',
  countLabels: {
    create: 'Новые',
    update: 'Изменятся',
    unchanged: 'Без изменений',
    delete: 'Будут удалены',
    error: 'Ошибки',
  } satisfies Record<PeopleAction, string>,
  count: (label: string, n: number) => `${label}: ${n}`,
  newDepartments: (n: number) => `${pluralRu(n, WILL_BE_CREATED)} ${formatCount(n, DEPARTMENTS)}:`,
  createdDepartments: (n: number) => `${pluralRu(n, WERE_CREATED)} ${formatCount(n, DEPARTMENTS)}:`,
  errorsSkipped: (n: number) =>
    `${formatCount(n, ROWS_WITH_ERRORS)} ${pluralRu(n, WILL_BE_SKIPPED)}. Если эти сотрудники нужны, исправьте файл и загрузите его снова.`,
  filter: 'Показать строки',
  all: 'Все',
  filterOption: (label: string, n: number) => `${label} (${n})`,
  table: 'Строки файла',
  colLine: 'Строка',
  colPerson: 'Сотрудник',
  colAction: 'Действие',
  colChanges: 'Изменения',
  /** The one column of a phone's layout. */
  colRow: 'Строка файла',
  lineN: (line: number) => `Строка ${line}`,
  notInFile: 'Нет в файле',
  empty: '—',
  noRows: 'Таких строк нет',
  rowsPages: 'Страницы строк файла',
  rowsShown: (from: number, to: number, total: number) => `${from}–${to} из ${total}`,
  loadError: 'Не удалось загрузить проверку файла',

  // step 4: applying
  apply: 'Применить изменения',
  nothingToApply: 'Применять нечего: файл никого не добавляет, не меняет и не удаляет.',
  nothingButErrors:
    'Применять нечего: в файле нет изменений, кроме строк с ошибками. Исправьте их и загрузите файл снова.',
  confirmTitle: 'Удаление сотрудников',
  confirmDelete: (n: number) =>
    `${pluralRu(n, WILL_BE_DELETED)} ${formatCount(n, EMPLOYEES)}, ${pluralRu(n, WHO_ARE_MISSING)} в файле. Их история обучения сохранится, но войти на платформу они больше не смогут. Применить изменения?`,
  confirmButton: 'Применить и удалить',
  applying: 'Применяем изменения…',
  applyError: 'Не удалось применить изменения',
  applied: 'Изменения применены',
  appliedAt: (at: string) => `Применено ${at}`,
  statusPreviewed: 'Не применено',
  statusApplied: 'Применено',
  welcomeQueued: 'Приглашения новым сотрудникам уходят в фоне — их видно в журнале писем.',
  toList: 'К списку сотрудников',
  another: 'Загрузить другой файл',
  uploadAgain: 'Загрузить файл ещё раз',
} as const;

/** The badge colour of each action: new green, changed blue, the same grey, deleted orange, errors red. */
export const ACTION_COLORS: Record<PeopleAction, string> = {
  create: 'green',
  update: 'blue',
  unchanged: 'gray',
  delete: 'orange',
  error: 'red',
};
