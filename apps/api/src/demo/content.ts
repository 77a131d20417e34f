import { NEW_TEST_SETTINGS, type TestSettings } from '@lms/contract';
import { coverPng, dashboardPng, evacuationPlanPng, matrixPng, phishingMailPng } from './images.js';

/**
 * What the demo contains: people, the course catalogue and the learners' progress. Plain data;
 * seed.ts turns it into rows. Times are "days ago" relative to the clock (fractions allowed).
 */

// ───────────────────────────── stored files ─────────────────────────────

export interface DemoFile {
  /** Path under `${dataDir}/storage/`, as kept in the database and served at /storage/<path>. */
  path: string;
  originalFilename: string;
  mime: string;
  bytes(): Buffer;
}

/** UTF-8 with a byte-order mark, so that Windows editors show the Cyrillic text correctly. */
const text =
  (lines: string[]): (() => Buffer) =>
  () =>
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);

export const FILES = {
  coverSafety: {
    path: 'demo/cover-okhrana-truda.png',
    originalFilename: 'обложка-охрана-труда.png',
    mime: 'image/png',
    bytes: () => coverPng([224, 49, 49], [247, 103, 7], 'circles'),
  },
  coverInfosec: {
    path: 'demo/cover-infobez.png',
    originalFilename: 'обложка-информационная-безопасность.png',
    mime: 'image/png',
    bytes: () => coverPng([28, 126, 214], [59, 91, 219], 'grid'),
  },
  coverProduct: {
    path: 'demo/cover-biznes-online.png',
    originalFilename: 'обложка-бизнес-онлайн.png',
    mime: 'image/png',
    bytes: () => coverPng([12, 166, 120], [16, 152, 173], 'bars'),
  },
  coverNegotiation: {
    path: 'demo/cover-peregovory.png',
    originalFilename: 'обложка-переговоры.png',
    mime: 'image/png',
    bytes: () => coverPng([132, 94, 247], [190, 75, 219], 'waves'),
  },
  coverCrm: {
    path: 'demo/cover-crm.png',
    originalFilename: 'обложка-crm.png',
    mime: 'image/png',
    bytes: () => coverPng([73, 80, 87], [134, 142, 150], 'dots'),
  },
  evacuationPlan: {
    path: 'demo/skhema-evakuatsii.png',
    originalFilename: 'схема.png',
    mime: 'image/png',
    bytes: evacuationPlanPng,
  },
  phishingMail: {
    path: 'demo/fishingovoe-pismo.png',
    originalFilename: 'фишинговое-письмо.png',
    mime: 'image/png',
    bytes: phishingMailPng,
  },
  productScreen: {
    path: 'demo/biznes-online-kabinet.png',
    originalFilename: 'личный-кабинет.png',
    mime: 'image/png',
    bytes: () => dashboardPng([12, 166, 120]),
  },
  crmScreen: {
    path: 'demo/crm-interfeis.png',
    originalFilename: 'интерфейс-crm.png',
    mime: 'image/png',
    bytes: () => dashboardPng([73, 80, 87]),
  },
  negotiationMatrix: {
    path: 'demo/matritsa-peregovorov.png',
    originalFilename: 'матрица.png',
    mime: 'image/png',
    bytes: matrixPng,
  },
  fireMemo: {
    path: 'demo/pamyatka-pozharnaya-bezopasnost.txt',
    originalFilename: 'Памятка по пожарной безопасности.txt',
    mime: 'text/plain; charset=utf-8',
    bytes: text([
      'ПАМЯТКА ПО ПОЖАРНОЙ БЕЗОПАСНОСТИ',
      '',
      '1. Сохраняйте спокойствие и сообщите о пожаре по телефону 112 или 101.',
      '2. Нажмите ближайшую кнопку пожарной сигнализации.',
      '3. Предупредите коллег и руководителя.',
      '4. Не пользуйтесь лифтом — эвакуируйтесь по лестнице согласно схеме.',
      '5. При сильном задымлении двигайтесь пригнувшись, закрыв нос и рот влажной тканью.',
      '6. Соберитесь в месте сбора у главного входа и дождитесь переклички.',
      '',
      'Огнетушители расположены у лифтового холла и в конце каждого коридора.',
    ]),
  },
  firstAidAlgorithm: {
    path: 'demo/algoritm-pervoy-pomoshchi.txt',
    originalFilename: 'Алгоритм первой помощи.txt',
    mime: 'text/plain; charset=utf-8',
    bytes: text([
      'АЛГОРИТМ ОКАЗАНИЯ ПЕРВОЙ ПОМОЩИ',
      '',
      '1. Убедитесь, что вам и пострадавшему ничего не угрожает.',
      '2. Проверьте сознание: окликните, аккуратно потрясите за плечи.',
      '3. Позовите на помощь и вызовите скорую помощь: 112 или 103.',
      '4. Проверьте дыхание в течение 10 секунд.',
      '5. При отсутствии дыхания начните сердечно-лёгочную реанимацию: 30 надавливаний на грудину,',
      '   2 вдоха; продолжайте до приезда скорой помощи.',
      '6. При наличии дыхания придайте устойчивое боковое положение и контролируйте состояние.',
    ]),
  },
  confidentialRules: {
    path: 'demo/reglament-konfidentsialnost.txt',
    originalFilename: 'Регламент работы с конфиденциальной информацией.txt',
    mime: 'text/plain; charset=utf-8',
    bytes: text([
      'РЕГЛАМЕНТ РАБОТЫ С КОНФИДЕНЦИАЛЬНОЙ ИНФОРМАЦИЕЙ (выдержка)',
      '',
      '— Конфиденциальные документы хранятся только в корпоративных системах.',
      '— Передача данных третьим лицам допускается только по договору и с согласия руководителя.',
      '— Запрещено пересылать рабочие файлы на личную почту и в мессенджеры.',
      '— Уходя с рабочего места, блокируйте компьютер (Win + L).',
      '— Распечатанные документы не оставляйте на принтере и столе.',
      '— О подозрительных письмах и инцидентах сообщайте в ИТ-отдел.',
    ]),
  },
  demoChecklist: {
    path: 'demo/chek-list-demonstratsii.txt',
    originalFilename: 'Чек-лист демонстрации продукта.txt',
    mime: 'text/plain; charset=utf-8',
    bytes: text([
      'ЧЕК-ЛИСТ ДЕМОНСТРАЦИИ «БИЗНЕС-ОНЛАЙН»',
      '',
      '[ ] Уточнить задачи клиента и количество сотрудников',
      '[ ] Подготовить демо-кабинет с данными из отрасли клиента',
      '[ ] Показать выставление счёта за 1 минуту',
      '[ ] Показать интеграцию с банком и отчёты',
      '[ ] Ответить на вопросы и зафиксировать возражения',
      '[ ] Договориться о следующем шаге и сроке',
    ]),
  },
} satisfies Record<string, DemoFile>;

export type FileKey = keyof typeof FILES;

// ───────────────────────────── people ─────────────────────────────

export type DeptKey = 'sales' | 'accounting' | 'it' | 'hr';
export const DEPARTMENTS: { key: DeptKey; name: string; sortOrder: number | null }[] = [
  { key: 'sales', name: 'Отдел продаж', sortOrder: 1 },
  { key: 'accounting', name: 'Бухгалтерия', sortOrder: 2 },
  { key: 'it', name: 'ИТ-отдел', sortOrder: 3 },
  { key: 'hr', name: 'Служба персонала', sortOrder: null },
];

export type DemoRole = 'admin' | 'author' | 'manager' | 'learner';
export type UserKey =
  | 'author'
  | 'manager'
  | 'learner'
  | 'kuznetsova'
  | 'volkov'
  | 'morozova'
  | 'lebedeva'
  | 'kozlova'
  | 'novikov'
  | 'pavlov'
  | 'fedorova';

export interface DemoUser {
  key: UserKey;
  /** Local part of the e-mail; the domain is the configured login domain. */
  local: string;
  firstName: string;
  lastName: string;
  position: string;
  dept: DeptKey;
  role: DemoRole;
  createdDaysAgo: number;
  lastActivityDaysAgo: number | null;
}

/** The marker of a loaded demo: when this user exists, the demo is not loaded again. */
export const MARKER_LOCAL = 'learner';

export const USERS: DemoUser[] = [
  {
    key: 'author',
    local: 'author',
    firstName: 'Елена',
    lastName: 'Васильева',
    position: 'Специалист по обучению персонала',
    dept: 'hr',
    role: 'author',
    createdDaysAgo: 90,
    lastActivityDaysAgo: 0.02,
  },
  {
    key: 'manager',
    local: 'manager',
    firstName: 'Ирина',
    lastName: 'Соколова',
    position: 'Руководитель отдела продаж',
    dept: 'sales',
    role: 'manager',
    createdDaysAgo: 88,
    lastActivityDaysAgo: 0.2,
  },
  {
    key: 'learner',
    local: MARKER_LOCAL,
    firstName: 'Алексей',
    lastName: 'Смирнов',
    position: 'Менеджер по продажам',
    dept: 'sales',
    role: 'learner',
    createdDaysAgo: 45,
    lastActivityDaysAgo: 0.08,
  },
  {
    key: 'kuznetsova',
    local: 'm.kuznetsova',
    firstName: 'Мария',
    lastName: 'Кузнецова',
    position: 'Старший менеджер по продажам',
    dept: 'sales',
    role: 'learner',
    createdDaysAgo: 85,
    lastActivityDaysAgo: 1.1,
  },
  {
    key: 'volkov',
    local: 'd.volkov',
    firstName: 'Дмитрий',
    lastName: 'Волков',
    position: 'Менеджер по работе с ключевыми клиентами',
    dept: 'sales',
    role: 'learner',
    createdDaysAgo: 80,
    lastActivityDaysAgo: 3.2,
  },
  {
    key: 'morozova',
    local: 'e.morozova',
    firstName: 'Екатерина',
    lastName: 'Морозова',
    position: 'Специалист по продажам',
    dept: 'sales',
    role: 'learner',
    createdDaysAgo: 40,
    lastActivityDaysAgo: 2.9,
  },
  {
    key: 'lebedeva',
    local: 'o.lebedeva',
    firstName: 'Ольга',
    lastName: 'Лебедева',
    position: 'Главный бухгалтер',
    dept: 'accounting',
    role: 'learner',
    createdDaysAgo: 86,
    lastActivityDaysAgo: 0.9,
  },
  {
    key: 'kozlova',
    local: 'n.kozlova',
    firstName: 'Наталья',
    lastName: 'Козлова',
    position: 'Бухгалтер по расчёту заработной платы',
    dept: 'accounting',
    role: 'learner',
    createdDaysAgo: 70,
    lastActivityDaysAgo: 1.9,
  },
  {
    key: 'novikov',
    local: 's.novikov',
    firstName: 'Сергей',
    lastName: 'Новиков',
    position: 'Системный администратор',
    dept: 'it',
    role: 'learner',
    createdDaysAgo: 60,
    lastActivityDaysAgo: 0.01,
  },
  {
    key: 'pavlov',
    local: 'a.pavlov',
    firstName: 'Андрей',
    lastName: 'Павлов',
    position: 'Разработчик',
    dept: 'it',
    role: 'learner',
    createdDaysAgo: 22,
    lastActivityDaysAgo: 10.9,
  },
  {
    key: 'fedorova',
    local: 'a.fedorova',
    firstName: 'Анна',
    lastName: 'Фёдорова',
    position: 'HR-менеджер',
    dept: 'hr',
    role: 'learner',
    createdDaysAgo: 45,
    lastActivityDaysAgo: null,
  },
];

export const GROUP = {
  name: 'Новые сотрудники',
  members: ['learner', 'morozova', 'pavlov', 'fedorova'] satisfies UserKey[],
  addedDaysAgo: 20,
};

// ───────────────────────────── catalogue ─────────────────────────────

export type CategoryKey = 'mandatory' | 'products' | 'skills';
export const CATEGORIES: { key: CategoryKey; name: string; sortOrder: number }[] = [
  { key: 'mandatory', name: 'Обязательное обучение', sortOrder: 0 },
  { key: 'products', name: 'Продукты компании', sortOrder: 1 },
  { key: 'skills', name: 'Развитие навыков', sortOrder: 2 },
];

export const VIDEO = { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', videoId: 'dQw4w9WgXcQ' };

export type Block =
  | { type: 'text'; html: string }
  | { type: 'video' }
  | { type: 'image'; file: FileKey; description: string }
  | { type: 'file'; file: FileKey }
  | { type: 'button'; buttons: { title: string; url: string }[] };

export interface LessonDef {
  kind: 'lesson';
  key: string;
  name: string;
  description: string;
  blocks: Block[];
}

export interface QuestionDef {
  text: string;
  /** [answer text, is correct]; several correct answers make a multiple-choice question. */
  answers: [string, boolean][];
}

/** The demo's tests ask for 70 % unless they say otherwise; the rest is a new test's settings. */
export const DEFAULT_TEST_SETTINGS: TestSettings = { ...NEW_TEST_SETTINGS, passing_score: 70 };

export interface TestDef {
  kind: 'test';
  key: string;
  name: string;
  settings: Partial<TestSettings>;
  questions: QuestionDef[];
}

export interface ModuleDef {
  name: string;
  items: (LessonDef | TestDef)[];
}

export interface CourseDef {
  key: string;
  title: string;
  description: string;
  category: CategoryKey | null;
  sortOrder: number;
  published: boolean;
  accessibility: 'everyone' | 'enrolled_only' | 'nobody';
  deadline: { type: 'from_enrollment' | 'from_start'; days: number; warningDays: number } | null;
  recurrenceDays: number | null;
  cover: FileKey;
  createdDaysAgo: number;
  modules: ModuleDef[];
}

const lesson = (key: string, name: string, description: string, blocks: Block[]): LessonDef => ({
  kind: 'lesson',
  key,
  name,
  description,
  blocks,
});
const test = (key: string, name: string, settings: Partial<TestSettings>, questions: QuestionDef[]): TestDef => ({
  kind: 'test',
  key,
  name,
  settings,
  questions,
});
/** Rich text written over several source lines: line breaks become spaces, none between tags. */
const html = (s: string): Block => ({
  type: 'text',
  html: s
    .replace(/\s*\n\s*/g, ' ')
    .replace(/>\s+</g, '><')
    .trim(),
});

export const COURSES: CourseDef[] = [
  {
    key: 'safety',
    title: 'Охрана труда и пожарная безопасность',
    description:
      'Обязательный ежегодный курс: безопасная организация рабочего места, действия при пожаре и эвакуации, первая помощь пострадавшему.',
    category: 'mandatory',
    sortOrder: 0,
    published: true,
    accessibility: 'everyone',
    deadline: { type: 'from_enrollment', days: 30, warningDays: 5 },
    recurrenceDays: 365,
    cover: 'coverSafety',
    createdDaysAgo: 120,
    modules: [
      {
        name: 'Общие требования охраны труда',
        items: [
          lesson(
            'safety.intro',
            'Вводный инструктаж',
            'Права и обязанности работника, виды инструктажей и ответственность за нарушения.',
            [
              html(`<p>Вводный инструктаж проходит <strong>каждый новый сотрудник</strong> до начала работы.
              Его цель — познакомить вас с основными правилами безопасности в компании.</p>
              <p>Работник обязан:</p>
              <ul><li>соблюдать требования охраны труда и инструкции по своей должности;</li>
              <li>правильно применять средства индивидуальной защиты;</li>
              <li>немедленно сообщать руководителю о несчастном случае или угрозе жизни и здоровью людей;</li>
              <li>проходить обучение, инструктажи и медицинские осмотры в установленные сроки.</li></ul>`),
              { type: 'video' },
              {
                type: 'image',
                file: 'evacuationPlan',
                description: 'План эвакуации третьего этажа офиса: зелёным показан путь к выходам',
              },
              { type: 'file', file: 'fireMemo' },
              {
                type: 'button',
                buttons: [
                  { title: 'Открыть портал', url: 'https://example.com' },
                  { title: 'Инструкции по охране труда', url: 'https://example.com/instructions' },
                ],
              },
            ],
          ),
          lesson(
            'safety.workplace',
            'Безопасность на рабочем месте',
            'Эргономика, электробезопасность и режим труда при работе за компьютером.',
            [
              html(`<p>Большую часть дня офисный сотрудник проводит за компьютером. Чтобы сохранить здоровье:</p>
              <ul><li>верхний край монитора — на уровне глаз, расстояние до экрана 50–70 см;</li>
              <li>каждый час делайте перерыв на 5–10 минут;</li>
              <li>не перегружайте удлинители и не пользуйтесь повреждёнными кабелями;</li>
              <li>не загромождайте проходы коробками и личными вещами.</li></ul>
              <p>О неисправной технике сообщайте в ИТ-отдел — не пытайтесь чинить её самостоятельно.</p>`),
            ],
          ),
        ],
      },
      {
        name: 'Пожарная безопасность',
        items: [
          lesson(
            'safety.fire-causes',
            'Причины пожаров и их профилактика',
            'Откуда берётся огонь в офисе и как этого не допустить.',
            [
              html(`<p>Самые частые причины пожаров в офисе:</p>
              <ol><li>неисправная электропроводка и самодельные удлинители;</li>
              <li>оставленные включёнными обогреватели и чайники;</li>
              <li>курение в неустановленных местах.</li></ol>
              <p><strong>Помните:</strong> курить можно только в специально отведённых и оборудованных местах.</p>`),
              { type: 'video' },
            ],
          ),
          lesson(
            'safety.evacuation',
            'Действия при пожаре и эвакуация',
            'Порядок действий при пожаре, правила эвакуации и работа с огнетушителем.',
            [
              html(`<p>Обнаружив пожар, действуйте по порядку:</p>
              <ol><li>сообщите по телефону <strong>112</strong> или <strong>101</strong> адрес и что горит;</li>
              <li>нажмите кнопку пожарной сигнализации и предупредите коллег;</li>
              <li>если возгорание небольшое — попробуйте потушить его огнетушителем;</li>
              <li>при угрозе жизни немедленно эвакуируйтесь по лестнице.</li></ol>
              <p>Лифтом при пожаре пользоваться <strong>запрещено</strong>.</p>`),
              {
                type: 'image',
                file: 'evacuationPlan',
                description: 'Схема эвакуации: выходы расположены в обоих концах коридора',
              },
              {
                type: 'button',
                buttons: [{ title: 'Схемы эвакуации всех этажей', url: 'https://example.com/evacuation' }],
              },
            ],
          ),
        ],
      },
      {
        name: 'Первая помощь',
        items: [
          lesson('safety.first-aid', 'Оказание первой помощи', 'Алгоритм действий до приезда скорой помощи.', [
            html(`<p>Первую помощь может и должен оказать любой сотрудник. Главное — не навредить и вызвать скорую помощь.</p>
              <ul><li>убедитесь в собственной безопасности;</li>
              <li>проверьте сознание и дыхание пострадавшего;</li>
              <li>вызовите скорую помощь по номеру <strong>112</strong> или <strong>103</strong>;</li>
              <li>аптечка первой помощи находится на ресепшене и в каждом отделе.</li></ul>`),
            { type: 'file', file: 'firstAidAlgorithm' },
          ]),
          test(
            'safety.final',
            'Итоговый тест по охране труда',
            {
              passing_score: 80,
              has_timer: true,
              timer_seconds: 600,
              has_attempts_limit: true,
              max_attempts: 3,
              show_correct_answers: true,
            },
            [
              {
                text: 'По какому номеру нужно сообщить о пожаре?',
                answers: [
                  ['112', true],
                  ['101', true],
                  ['103', false],
                  ['104', false],
                ],
              },
              {
                text: 'Можно ли пользоваться лифтом во время пожара?',
                answers: [
                  ['Да, если он исправен', false],
                  ['Нет, эвакуироваться нужно по лестнице', true],
                  ['Только сотрудникам охраны', false],
                ],
              },
              {
                text: 'Как часто рекомендуется делать перерыв при работе за компьютером?',
                answers: [
                  ['Каждый час на 5–10 минут', true],
                  ['Раз в день на обед', false],
                  ['Перерывы не нужны', false],
                ],
              },
              {
                text: 'Что необходимо сделать в первую очередь, оказывая первую помощь?',
                answers: [
                  ['Дать пострадавшему воды', false],
                  ['Убедиться, что вам и пострадавшему ничего не угрожает', true],
                  ['Перенести пострадавшего в другое помещение', false],
                ],
              },
              {
                text: 'Какие из перечисленных причин чаще всего приводят к пожару в офисе?',
                answers: [
                  ['Неисправная электропроводка', true],
                  ['Оставленные включёнными обогреватели', true],
                  ['Открытые окна', false],
                  ['Курение в неустановленных местах', true],
                ],
              },
            ],
          ),
        ],
      },
    ],
  },
  {
    key: 'infosec',
    title: 'Информационная безопасность',
    description:
      'Как распознать фишинг, защитить учётную запись и правильно обращаться с конфиденциальными данными компании и клиентов.',
    category: 'mandatory',
    sortOrder: 1,
    published: true,
    accessibility: 'enrolled_only',
    deadline: { type: 'from_start', days: 14, warningDays: 3 },
    recurrenceDays: null,
    cover: 'coverInfosec',
    createdDaysAgo: 100,
    modules: [
      {
        name: 'Угрозы и правила',
        items: [
          lesson('infosec.phishing', 'Фишинг и социальная инженерия', 'Признаки мошеннических писем и звонков.', [
            html(`<p>Фишинг — это попытка выманить у вас пароль, деньги или доступ к системам, выдавая себя за коллегу, банк или поставщика.</p>
              <p>Признаки фишингового письма:</p>
              <ul><li>адрес отправителя похож на настоящий, но отличается одной-двумя буквами;</li>
              <li>письмо торопит: «срочно», «ваш аккаунт будет заблокирован»;</li>
              <li>просит перейти по ссылке и ввести пароль или открыть вложение;</li>
              <li>содержит ошибки и обезличенное обращение.</li></ul>`),
            {
              type: 'image',
              file: 'phishingMail',
              description: 'Пример фишингового письма: подозрительный отправитель и кнопка со ссылкой на чужой сайт',
            },
            { type: 'button', buttons: [{ title: 'Сообщить об инциденте', url: 'https://example.com/security' }] },
          ]),
          lesson(
            'infosec.passwords',
            'Пароли и двухфакторная аутентификация',
            'Как придумать надёжный пароль и зачем нужен второй фактор.',
            [
              html(`<p>Надёжный пароль — <strong>не короче 12 символов</strong>, содержит буквы разного регистра и цифры и не используется больше нигде.</p>
              <ul><li>не записывайте пароли на стикерах и в файлах на рабочем столе;</li>
              <li>используйте корпоративный менеджер паролей;</li>
              <li>включите двухфакторную аутентификацию везде, где это возможно.</li></ul>`),
              { type: 'video' },
            ],
          ),
        ],
      },
      {
        name: 'Работа с данными',
        items: [
          lesson(
            'infosec.confidential',
            'Конфиденциальная информация',
            'Что относится к коммерческой тайне и персональным данным и как с ними обращаться.',
            [
              html(`<p>К конфиденциальной информации относятся персональные данные сотрудников и клиентов, условия договоров, финансовые показатели и исходный код.</p>
              <p>Храните такие данные только в корпоративных системах и не пересылайте их на личную почту.</p>`),
              { type: 'file', file: 'confidentialRules' },
            ],
          ),
          test(
            'infosec.check',
            'Проверка знаний по информационной безопасности',
            {
              passing_score: 75,
              has_timer: true,
              timer_seconds: 900,
              has_retake_interval: true,
              retake_interval_seconds: 3600,
              has_question_bank: true,
              question_bank_size: 4,
              randomize_answers: true,
            },
            [
              {
                text: 'Какие признаки указывают на фишинговое письмо?',
                answers: [
                  ['Срочность и угрозы блокировки', true],
                  ['Просьба ввести пароль по ссылке', true],
                  ['Подпись с должностью отправителя', false],
                  ['Адрес отправителя, отличающийся одной буквой', true],
                ],
              },
              {
                text: 'Какой пароль надёжнее всего?',
                answers: [
                  ['qwerty123', false],
                  ['Дата рождения', false],
                  ['Длинная фраза из нескольких слов с цифрами', true],
                ],
              },
              {
                text: 'Можно ли переслать договор с клиентом на личную почту, чтобы поработать дома?',
                answers: [
                  ['Да, если договор не подписан', false],
                  ['Нет, только через корпоративные системы', true],
                  ['Да, с разрешения коллеги', false],
                ],
              },
              {
                text: 'Что нужно сделать, уходя с рабочего места?',
                answers: [
                  ['Выключить монитор', false],
                  ['Заблокировать компьютер', true],
                  ['Ничего, если отлучаетесь ненадолго', false],
                ],
              },
              {
                text: 'Куда сообщать о подозрительном письме?',
                answers: [
                  ['В ИТ-отдел', true],
                  ['Отправителю письма', false],
                  ['Никуда, просто удалить', false],
                ],
              },
            ],
          ),
        ],
      },
    ],
  },
  {
    key: 'product',
    title: 'Продукт «Бизнес-Онлайн»: основы',
    description: 'Возможности сервиса «Бизнес-Онлайн», тарифы, подключение клиента и работа с типовыми возражениями.',
    category: 'products',
    sortOrder: 0,
    published: true,
    accessibility: 'enrolled_only',
    deadline: { type: 'from_enrollment', days: 21, warningDays: 3 },
    recurrenceDays: null,
    cover: 'coverProduct',
    createdDaysAgo: 75,
    modules: [
      {
        name: 'Знакомство с продуктом',
        items: [
          lesson('product.overview', 'Что такое «Бизнес-Онлайн»', 'Для кого создан сервис и какие задачи он решает.', [
            html(`<p><strong>«Бизнес-Онлайн»</strong> — облачный сервис для малого бизнеса: счета, учёт платежей, отчёты и интеграция с банком в одном окне.</p>
              <ul><li>выставление счёта за одну минуту;</li>
              <li>автоматическая загрузка выписок из банка;</li>
              <li>напоминания клиентам об оплате;</li>
              <li>готовые отчёты для руководителя.</li></ul>`),
            { type: 'video' },
            {
              type: 'image',
              file: 'productScreen',
              description: 'Личный кабинет клиента: сводка по счетам и график поступлений',
            },
          ]),
          lesson('product.plans', 'Тарифы и подключение', 'Линейка тарифов и порядок подключения нового клиента.', [
            html(`<p>Сервис предлагается в трёх тарифах:</p>
              <ul><li><strong>Старт</strong> — для индивидуальных предпринимателей, до 2 пользователей;</li>
              <li><strong>Бизнес</strong> — до 10 пользователей и интеграция с банком;</li>
              <li><strong>Корпоративный</strong> — без ограничений, с персональным менеджером.</li></ul>
              <p>Подключение занимает один рабочий день: заявка, проверка реквизитов, доступ в кабинет.</p>`),
            {
              type: 'button',
              buttons: [
                { title: 'Открыть тарифы', url: 'https://example.com/tariffs' },
                { title: 'Форма заявки', url: 'https://example.com/request' },
              ],
            },
          ]),
        ],
      },
      {
        name: 'Продажа продукта',
        items: [
          lesson(
            'product.objections',
            'Типовые возражения клиентов',
            'Что отвечать на «дорого», «у нас уже есть программа» и «нам не нужно».',
            [
              html(`<p>Возражение — это не отказ, а запрос на дополнительную информацию.</p>
              <ul><li><em>«Дорого»</em> — посчитайте с клиентом, сколько времени бухгалтера экономит сервис;</li>
              <li><em>«У нас уже есть программа»</em> — узнайте, чего в ней не хватает;</li>
              <li><em>«Нам не нужно»</em> — уточните, как сейчас выставляются счета и контролируется оплата.</li></ul>`),
            ],
          ),
          lesson(
            'product.demo',
            'Демонстрация продукта клиенту',
            'Как провести демонстрацию за 20 минут и договориться о следующем шаге.',
            [
              html(`<p>Хорошая демонстрация отвечает на задачи клиента, а не перечисляет все функции.</p>
              <p>Перед встречей подготовьте демо-кабинет с данными из отрасли клиента, а в конце обязательно договоритесь о следующем шаге.</p>`),
              { type: 'video' },
              { type: 'file', file: 'demoChecklist' },
            ],
          ),
          test(
            'product.test',
            'Тест по продукту «Бизнес-Онлайн»',
            { passing_score: 75, has_timer: true, timer_seconds: 600, has_attempts_limit: true, max_attempts: 2 },
            [
              {
                text: 'Сколько пользователей доступно на тарифе «Бизнес»?',
                answers: [
                  ['До 2', false],
                  ['До 10', true],
                  ['Без ограничений', false],
                ],
              },
              {
                text: 'Какие возможности есть в сервисе «Бизнес-Онлайн»?',
                answers: [
                  ['Выставление счетов', true],
                  ['Загрузка банковских выписок', true],
                  ['Расчёт заработной платы', false],
                  ['Напоминания клиентам об оплате', true],
                ],
              },
              {
                text: 'Сколько времени занимает подключение нового клиента?',
                answers: [
                  ['Один рабочий день', true],
                  ['Неделю', false],
                  ['Месяц', false],
                ],
              },
              {
                text: 'Чем нужно завершить демонстрацию продукта?',
                answers: [
                  ['Отправить презентацию', false],
                  ['Договориться о следующем шаге', true],
                  ['Рассказать обо всех функциях', false],
                ],
              },
            ],
          ),
        ],
      },
    ],
  },
  {
    key: 'negotiation',
    title: 'Эффективные переговоры',
    description: 'Подготовка к переговорам, активное слушание, работа с возражениями и торг без потери маржи.',
    category: 'skills',
    sortOrder: 0,
    published: true,
    accessibility: 'everyone',
    deadline: null,
    recurrenceDays: null,
    cover: 'coverNegotiation',
    createdDaysAgo: 60,
    modules: [
      {
        name: 'Подготовка к переговорам',
        items: [
          lesson(
            'negotiation.goals',
            'Цели и позиция',
            'Как определить цель, точку ухода и альтернативы до начала переговоров.',
            [
              html(`<p>До начала переговоров ответьте себе на три вопроса:</p>
              <ol><li>Какой результат будет идеальным?</li>
              <li>На каком условии вы готовы прекратить переговоры (точка ухода)?</li>
              <li>Какая у вас лучшая альтернатива, если договориться не удастся?</li></ol>`),
              {
                type: 'image',
                file: 'negotiationMatrix',
                description: 'Матрица «интересы — позиции»: в какой зоне ищется взаимовыгодное решение',
              },
            ],
          ),
          lesson(
            'negotiation.listening',
            'Вопросы и активное слушание',
            'Открытые вопросы, перефразирование и пауза как инструменты переговорщика.',
            [
              html(`<p>Тот, кто задаёт вопросы, управляет переговорами.</p>
              <ul><li><strong>открытые вопросы</strong> помогают узнать интересы собеседника;</li>
              <li><strong>перефразирование</strong> показывает, что вы услышали;</li>
              <li><strong>пауза</strong> даёт собеседнику время добавить важное.</li></ul>`),
              { type: 'video' },
            ],
          ),
        ],
      },
      {
        name: 'Ведение переговоров',
        items: [
          lesson(
            'negotiation.bargaining',
            'Работа с возражениями и торг',
            'Уступки в обмен на встречные уступки и фиксация договорённостей.',
            [
              html(`<p>Никогда не делайте уступку просто так — только в обмен на встречное условие: «Если вы подпишете договор на год, мы сможем дать скидку 5%».</p>
              <p>В конце встречи письменно зафиксируйте договорённости и сроки.</p>`),
              { type: 'button', buttons: [{ title: 'Записаться на тренинг', url: 'https://example.com/training' }] },
            ],
          ),
          test('negotiation.self-check', 'Самопроверка: переговоры', { passing_score: 60, randomize_questions: true }, [
            {
              text: 'Что такое точка ухода?',
              answers: [
                ['Условие, при котором вы прекращаете переговоры', true],
                ['Время окончания встречи', false],
                ['Первое предложение клиента', false],
              ],
            },
            {
              text: 'Какие приёмы относятся к активному слушанию?',
              answers: [
                ['Перефразирование', true],
                ['Уточняющие вопросы', true],
                ['Перебивание собеседника', false],
              ],
            },
            {
              text: 'Когда уместно сделать уступку?',
              answers: [
                ['В начале встречи, чтобы расположить клиента', false],
                ['В обмен на встречное условие', true],
                ['Никогда', false],
              ],
            },
          ]),
        ],
      },
    ],
  },
  {
    key: 'crm',
    title: 'Работа с CRM',
    description: 'Черновик курса: ведение клиентов, сделок и задач в корпоративной CRM-системе.',
    category: null,
    sortOrder: 0,
    published: false,
    accessibility: 'enrolled_only',
    deadline: null,
    recurrenceDays: null,
    cover: 'coverCrm',
    createdDaysAgo: 5,
    modules: [
      {
        name: 'Начало работы',
        items: [
          lesson('crm.interface', 'Вход и интерфейс', 'Как войти в CRM и где что находится.', [
            html(
              `<p>CRM открывается из меню корпоративного портала. Слева — разделы «Клиенты», «Сделки», «Задачи» и «Отчёты».</p>`,
            ),
            { type: 'image', file: 'crmScreen', description: 'Главный экран CRM' },
          ]),
          lesson('crm.client-card', 'Карточка клиента', 'Какие поля обязательны и как вести историю общения.', [
            html(
              `<p>В карточке клиента обязательно заполните ИНН, контактное лицо и источник обращения. Каждый звонок и встречу фиксируйте в истории.</p>`,
            ),
          ]),
        ],
      },
      {
        name: 'Сделки и задачи',
        items: [
          lesson('crm.pipeline', 'Воронка продаж', 'Этапы сделки и правила перехода между ними.', [
            html(
              `<p>Сделка проходит этапы: <em>новая → квалификация → предложение → согласование → оплата</em>. Переводите сделку на следующий этап только после выполнения условий текущего.</p>`,
            ),
            { type: 'video' },
          ]),
          test('crm.test', 'Тест по работе с CRM', { passing_score: 70 }, [
            {
              text: 'Какие поля карточки клиента обязательны?',
              answers: [
                ['ИНН', true],
                ['Контактное лицо', true],
                ['Дата рождения директора', false],
                ['Источник обращения', true],
              ],
            },
            {
              text: 'Какой этап идёт после «Предложения»?',
              answers: [
                ['Оплата', false],
                ['Согласование', true],
                ['Квалификация', false],
              ],
            },
            {
              text: 'Где фиксируется история общения с клиентом?',
              answers: [
                ['В карточке клиента', true],
                ['В личной записной книжке', false],
                ['Нигде', false],
              ],
            },
          ]),
        ],
      },
    ],
  },
];

// ───────────────────────────── enrollment ─────────────────────────────

export const DEPARTMENT_COURSES: { dept: DeptKey; course: string; daysAgo: number }[] = [
  // 30 days from enrolment, warning 5 days: sales overdue, accounting almost overdue, IT in order
  { dept: 'sales', course: 'safety', daysAgo: 35 },
  { dept: 'accounting', course: 'safety', daysAgo: 27 },
  { dept: 'it', course: 'safety', daysAgo: 12 },
  { dept: 'hr', course: 'safety', daysAgo: 40 },
  // 21 days, warning 3: deadline in two days
  { dept: 'sales', course: 'product', daysAgo: 19 },
];

export const GROUP_COURSES: { course: string; daysAgo: number }[] = [{ course: 'infosec', daysAgo: 20 }];

export const USER_COURSES: { user: UserKey; course: string; daysAgo: number }[] = [
  { user: 'novikov', course: 'infosec', daysAgo: 8 },
  { user: 'learner', course: 'negotiation', daysAgo: 15 },
  { user: 'kuznetsova', course: 'negotiation', daysAgo: 15 },
  { user: 'volkov', course: 'negotiation', daysAgo: 15 },
];

// ───────────────────────────── progress ─────────────────────────────

export interface LessonRun {
  user: UserKey;
  lesson: string;
  startedDaysAgo: number;
  /** Minutes spent; null: started and not completed. */
  minutes: number | null;
}

export interface AttemptRun {
  user: UserKey;
  test: string;
  startedDaysAgo: number;
  minutes: number;
  /** Indices of the asked questions, in the order shown; all questions in their order when omitted. */
  asked?: number[];
  /** Indices of the questions answered wrongly; the others are answered correctly. */
  wrong: number[];
}

/** Lessons completed one after another, `stepDays` apart. */
function walk(user: UserKey, lessons: string[], firstDaysAgo: number, stepDays: number, minutes = 12): LessonRun[] {
  return lessons.map((lesson, i) => ({
    user,
    lesson,
    startedDaysAgo: firstDaysAgo - i * stepDays,
    minutes: minutes + ((i * 7) % 11),
  }));
}

const SAFETY_LESSONS = [
  'safety.intro',
  'safety.workplace',
  'safety.fire-causes',
  'safety.evacuation',
  'safety.first-aid',
];
const INFOSEC_LESSONS = ['infosec.phishing', 'infosec.passwords', 'infosec.confidential'];
const PRODUCT_LESSONS = ['product.overview', 'product.plans', 'product.objections', 'product.demo'];
const NEGOTIATION_LESSONS = ['negotiation.goals', 'negotiation.listening', 'negotiation.bargaining'];

export const LESSON_RUNS: LessonRun[] = [
  // Алексей Смирнов (learner@): part-way everywhere, two lessons open for 'Продолжить просмотр'
  ...walk('learner', SAFETY_LESSONS.slice(0, 3), 20, 1),
  ...walk('learner', INFOSEC_LESSONS.slice(0, 2), 5, 1),
  ...walk('learner', ['product.overview'], 6, 0),
  { user: 'learner', lesson: 'product.plans', startedDaysAgo: 0.09, minutes: null },
  { user: 'learner', lesson: 'negotiation.goals', startedDaysAgo: 2.1, minutes: null },
  // Мария Кузнецова: the whole safety course, the product course and negotiations done
  ...walk('kuznetsova', SAFETY_LESSONS, 30, 1, 15),
  ...walk('kuznetsova', PRODUCT_LESSONS, 12, 2, 18),
  ...walk('kuznetsova', NEGOTIATION_LESSONS, 9, 1, 20),
  // Дмитрий Волков
  ...walk('volkov', PRODUCT_LESSONS.slice(0, 2), 10, 1.5),
  ...walk('volkov', ['negotiation.goals'], 3.3, 0),
  // Екатерина Морозова: started infosec long ago and stalled
  ...walk('morozova', ['infosec.phishing'], 16, 0),
  ...walk('morozova', ['safety.intro'], 3, 0),
  // Ирина Соколова (manager@): safety done a month ago
  ...walk('manager', SAFETY_LESSONS, 33, 0.5, 10),
  // Ольга Лебедева: four of five safety lessons
  ...walk('lebedeva', SAFETY_LESSONS.slice(0, 4), 10, 2),
  // Наталья Козлова: safety done
  ...walk('kozlova', SAFETY_LESSONS, 8, 1.2),
  // Сергей Новиков: safety started, infosec done
  ...walk('novikov', SAFETY_LESSONS.slice(0, 2), 7, 1),
  ...walk('novikov', INFOSEC_LESSONS, 5.5, 0.8),
  // Андрей Павлов: infosec lessons done, test failed
  ...walk('pavlov', INFOSEC_LESSONS, 12, 0.4),
];

export const ATTEMPT_RUNS: AttemptRun[] = [
  { user: 'learner', test: 'safety.final', startedDaysAgo: 17, minutes: 7, wrong: [0, 3, 4] },
  { user: 'kuznetsova', test: 'safety.final', startedDaysAgo: 25.9, minutes: 6, wrong: [1, 4] },
  { user: 'kuznetsova', test: 'safety.final', startedDaysAgo: 25.8, minutes: 5, wrong: [] },
  { user: 'kuznetsova', test: 'product.test', startedDaysAgo: 5.9, minutes: 4, wrong: [1] },
  { user: 'kuznetsova', test: 'negotiation.self-check', startedDaysAgo: 6.9, minutes: 3, asked: [2, 0, 1], wrong: [] },
  { user: 'volkov', test: 'product.test', startedDaysAgo: 5.2, minutes: 8, wrong: [0, 1] },
  { user: 'manager', test: 'safety.final', startedDaysAgo: 30.8, minutes: 5, wrong: [] },
  { user: 'kozlova', test: 'safety.final', startedDaysAgo: 2.9, minutes: 9, wrong: [2] },
  { user: 'novikov', test: 'infosec.check', startedDaysAgo: 3.1, minutes: 6, asked: [0, 2, 3, 4], wrong: [2] },
  { user: 'pavlov', test: 'infosec.check', startedDaysAgo: 11, minutes: 11, asked: [4, 1, 0, 3], wrong: [0, 1] },
];
