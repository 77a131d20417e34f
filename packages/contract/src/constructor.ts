import { z } from 'zod';
import { dbId, dbIdParam, safeText } from './common.js';
import { lessonKind } from './scorm.js';

/** Course constructor calls (docs/product.md §Constructor). */

const EMPTY = 'Поле не может быть пустым';
const message = z.string();
const ok = z.literal(true);

export const COURSE_TITLE_MAX = 150;
export const COURSE_DESCRIPTION_MAX = 255;
export const BUTTON_LABEL_MAX = 40;
export const MAX_BUTTONS = 2;
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const FILE_MAX_BYTES = 4 * 1024 * 1024 * 1024;
export const DEFAULT_LESSON_NAME = 'Новый урок';
export const DEFAULT_SCORM_NAME = 'Новый SCORM-пакет';

export const courseParams = z.object({ courseId: dbIdParam });
export const moduleParams = z.object({ courseId: dbIdParam, moduleId: dbIdParam });
export const lessonParams = z.object({ courseId: dbIdParam, lessonId: dbIdParam });

export const deadlineType = z.enum(['from_enrollment', 'from_start']);
export const accessibility = z.enum(['everyone', 'enrolled_only', 'nobody']);

/* ---------- Course settings rules (shared by the settings page and the server) ---------- */

export const COURSE_SETTING_MIN = 1;
export const COURSE_SETTING_MAX = 999;
export const COURSE_SETTINGS_MESSAGES = {
  range: 'Значение от 1 до 999',
  warningTooLong: 'Предупреждение не может быть дольше срока прохождения',
  recurrenceTooShort: 'Период повторения не может быть короче срока прохождения',
} as const;

/** The day counts of the course settings, each checked while its switch is on. */
export type CourseDayField = 'deadline_value' | 'deadline_warning_days' | 'recurrence_value';
export interface CourseDaySettings {
  has_deadline: boolean;
  deadline_value: number;
  deadline_warning_days: number;
  has_recurrence: boolean;
  recurrence_value: number;
}

const inRange = (n: number) => Number.isInteger(n) && n >= COURSE_SETTING_MIN && n <= COURSE_SETTING_MAX;

/**
 * What makes no sense in the course settings, by field: a value outside 1–999 (0 is not turned into
 * 1), a warning window longer than the deadline (the warning would come before the course is even
 * assigned), a recurrence shorter than the deadline (a new cycle would start before the last one's
 * deadline). Values behind a switch that is off are not checked. Empty: nothing to say.
 */
export function courseSettingsProblems(s: CourseDaySettings): Partial<Record<CourseDayField, string>> {
  const M = COURSE_SETTINGS_MESSAGES;
  const problems: Partial<Record<CourseDayField, string>> = {};
  const used: CourseDayField[] = [
    ...(s.has_deadline ? (['deadline_value', 'deadline_warning_days'] as const) : []),
    ...(s.has_recurrence ? (['recurrence_value'] as const) : []),
  ];
  for (const field of used) if (!inRange(s[field])) problems[field] = M.range;
  if (!s.has_deadline || problems.deadline_value) return problems;
  if (!problems.deadline_warning_days && s.deadline_warning_days > s.deadline_value) {
    problems.deadline_warning_days = M.warningTooLong;
  }
  if (s.has_recurrence && !problems.recurrence_value && s.recurrence_value < s.deadline_value) {
    problems.recurrence_value = M.recurrenceTooShort;
  }
  return problems;
}

const setting = z
  .number()
  .int()
  .min(COURSE_SETTING_MIN, COURSE_SETTINGS_MESSAGES.range)
  .max(COURSE_SETTING_MAX, COURSE_SETTINGS_MESSAGES.range);

/** GET /api/courses/{courseId} → result.course (docs/product.md §Constructor). */
export const constructorCourse = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** Storage path without the leading slash (the client shows it with one), or null. */
  image: z.string().nullable(),
  is_published: z.boolean(),
  has_deadline: z.boolean(),
  deadline_type: deadlineType,
  deadline_value: z.number().int(),
  deadline_unit: z.literal('days'),
  deadline_warning_days: z.number().int(),
  has_recurrence: z.boolean(),
  recurrence_value: z.number().int(),
  recurrence_unit: z.literal('days'),
  accessibility,
});
export type ConstructorCourse = z.infer<typeof constructorCourse>;
export const constructorCourseResponse = z.object({ result: z.object({ success: ok, course: constructorCourse }) });

/** PUT /api/courses/{courseId}: the header's title and description, or the course settings. */
export const updateCourseRequest = z
  .object({
    title: safeText(COURSE_TITLE_MAX, { required: EMPTY }),
    description: safeText(COURSE_DESCRIPTION_MAX, { multiline: true }),
    has_deadline: z.boolean(),
    deadline_type: deadlineType,
    deadline_value: setting,
    deadline_unit: z.literal('days'),
    deadline_warning_days: setting,
    has_recurrence: z.boolean(),
    recurrence_value: setting,
    recurrence_unit: z.literal('days'),
    accessibility,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Нет данных для сохранения' });
export type UpdateCourseRequest = z.infer<typeof updateCourseRequest>;
export const updateCourseResponse = z.object({
  result: z.object({ success: ok, message, course: constructorCourse }),
});

/** POST /api/courses/{id}/publish */
export const publishCourseRequest = z.object({ is_published: z.boolean() });
/** POST /api/courses/{id}/image → result.image */
export const courseImageResponse = z.object({
  result: z.object({ success: ok, message, image: z.string() }),
});

/** A lesson or test in a module list (docs/product.md §Constructor: lessons[], tests[]). */
export const moduleLesson = z.object({
  id: z.number().int(),
  name: z.string(),
  module_id: z.number().int(),
  is_published: z.boolean(),
  sort_order: z.number().int(),
  type: z.literal('lesson'),
  /** Lessons only: 'lesson' (blocks) or 'scorm' (a SCORM package, docs/rules.md §SCORM packages). */
  kind: lessonKind.optional(),
});
export const moduleTest = moduleLesson.omit({ kind: true }).extend({ type: z.literal('test') });
export type ModuleLesson = z.infer<typeof moduleLesson>;
export type ModuleTest = z.infer<typeof moduleTest>;

export const constructorModule = z.object({
  id: z.number().int(),
  name: z.string(),
  course_id: z.number().int(),
  sort_order: z.number().int(),
  /** The viewer's own progress in the module (docs/rules.md §Progress). */
  status: z.enum(['complete', 'process']),
  is_published: z.boolean(),
  published_at: z.string().nullable(),
  lessons: z.array(moduleLesson),
  tests: z.array(moduleTest),
});
export type ConstructorModule = z.infer<typeof constructorModule>;
export const modulesResponse = z.object({ result: z.object({ success: ok, items: z.array(constructorModule) }) });

const moduleName = safeText(255, { required: EMPTY });
/** POST /api/courses/modules */
export const createModuleRequest = z.object({
  name: moduleName,
  course_id: dbId,
  sort_order: z.number().int().min(0).max(100000).optional(),
});
export const moduleResponse = z.object({ result: z.object({ success: ok, message, item: constructorModule }) });
/** PUT /api/courses/{courseId}/modules/{moduleId} */
export const renameModuleRequest = z.object({ name: moduleName });
/** PUT /api/courses/{courseId}/modules/sort */
export const sortModulesRequest = z.object({
  modules: z
    .array(z.object({ id: dbId, sort_order: z.number().int().min(0).max(100000) }))
    .min(1)
    .max(1000),
});
/** PUT /api/courses/{courseId}/modules/{moduleId}/items/sort */
export const sortItemsRequest = z.object({
  items: z
    .array(z.object({ id: dbId, type: z.enum(['lesson', 'test']), sort_order: z.number().int().min(0).max(100000) }))
    .min(1)
    .max(1000),
});

/** Content of a video block: the link and the id the server found in it (null: no preview). */
export const videoContent = z.object({ url: z.string(), videoId: z.string().nullable() });
/** Content of an image block: an uploaded picture with its description (or only a description). */
export const imageContent = z.object({
  url: z.string().nullable().optional(),
  file_path: z.string().nullable().optional(),
  original_filename: z.string().nullable().optional(),
  description: z.string().optional(),
});
export const buttonItem = z.object({ title: z.string(), url: z.string() });
export type VideoContent = z.infer<typeof videoContent>;
export type ImageContent = z.infer<typeof imageContent>;
export type ButtonItem = z.infer<typeof buttonItem>;

export const blockTypes = ['title', 'description', 'text', 'video', 'image', 'file', 'button'] as const;
export type BlockType = (typeof blockTypes)[number];

/** A lesson content block as the server answers it (docs/product.md §Lesson editor). */
export const lessonBlock = z.object({
  id: z.number().int(),
  type: z.enum(blockTypes),
  content: z.union([z.string(), videoContent, imageContent, z.array(buttonItem)]).nullable(),
  file_path: z.string().nullable(),
  original_filename: z.string().nullable(),
  sort_order: z.number().int(),
});
export type LessonBlock = z.infer<typeof lessonBlock>;

export const constructorLesson = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  module_id: z.number().int(),
  is_published: z.boolean(),
  sort_order: z.number().int(),
  type: z.literal('lesson'),
  kind: lessonKind,
  contents: z.array(lessonBlock),
});
export type ConstructorLesson = z.infer<typeof constructorLesson>;
export const lessonResponse = z.object({ result: z.object({ success: ok, lesson: constructorLesson }) });

/** POST /api/courses/lessons → result.item */
export const createLessonRequest = z.object({
  name: safeText(255).optional(),
  module_id: dbId,
  /** 'scorm' makes a SCORM item (the package is uploaded next); 'lesson' by default. */
  kind: lessonKind.optional(),
});
export const createLessonResponse = z.object({ result: z.object({ success: ok, message, item: moduleLesson }) });
/** PUT /api/courses/{courseId}/lessons/{lessonId}: a rename, or a rename with the published flag. */
export const updateLessonRequest = z.object({ name: safeText(255), is_published: z.boolean().optional() });
export const updateLessonResponse = z.object({ result: z.object({ success: ok, message, item: moduleLesson }) });

/**
 * A block sent by the editor: `id` is the saved block's id, or a temporary id (any string, e.g.
 * 'tmp-1') for a new one. `content` is checked per type on the server.
 */
export const saveBlock = z.object({
  id: z.union([dbId, z.string().min(1).max(64)]),
  type: z.enum(blockTypes),
  content: z.unknown().optional(),
  file_path: z.string().max(500).nullable().optional(),
  original_filename: z.string().max(255).nullable().optional(),
  sort_order: z.number().int().min(-2).max(100000),
});
export type SaveBlock = z.infer<typeof saveBlock>;
/** PUT /api/courses/{courseId}/lessons/{lessonId}/contents → result.contents */
export const saveContentsRequest = z.object({ contents: z.array(saveBlock).max(500) });
export const saveContentsResponse = z.object({
  result: z.object({ success: ok, message, contents: z.array(lessonBlock) }),
});

/** POST /api/upload-image, POST /api/upload-file */
export const uploadResponse = z.object({
  result: z.object({
    success: ok,
    file_path: z.string(),
    original_filename: z.string(),
    url: z.string(),
  }),
});
export type UploadResult = z.infer<typeof uploadResponse>['result'];

export const CONSTRUCTOR_MESSAGES = {
  saved: 'Данные сохранены',
  settingsSaved: 'Настройки курса успешно сохранены',
  courseDeleted: 'Курс успешно удален',
  imageUploaded: 'Изображение успешно загружено',
  statusChanged: 'Статус курса успешно изменен',
  moduleCreated: 'Модуль успешно создан',
  moduleRenamed: 'Название модуля успешно обновлено',
  moduleDeleted: 'Модуль и его уроки успешно удалены',
  modulesSorted: 'Порядок модулей успешно обновлен',
  itemsSorted: 'Порядок элементов успешно обновлен',
  lessonCreated: 'Урок успешно создан',
  lessonDeleted: 'Урок успешно удален',
  lessonRenamed: 'Название урока успешно сохранено',
  lessonPublished: 'Урок опубликован',
  lessonUnpublished: 'Урок снят с публикации',
  contentsSaved: 'Изменения успешно сохранены',
  courseNotFound: 'Курс не найден',
  moduleNotFound: 'Модуль не найден',
  lessonNotFound: 'Урок не найден',
  scormPublishWithoutPackage: 'Сначала загрузите SCORM-пакет, затем опубликуйте его',
  badImage: 'Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif',
  imageTooLarge: 'Размер файла не должен превышать 20 МБ',
  fileTooLarge: 'Размер файла не должен превышать 4 ГБ',
  noFile: 'Файл не выбран',
  uploadAborted: 'Загрузка файла прервана',
  buttonLabel: 'Название кнопки не должно превышать 40 символов',
  tooManyButtons: 'Не более двух кнопок в блоке',
  badVideoLink: 'Некорректная ссылка на видео: укажите адрес, начинающийся с http:// или https://',
  badButtonLink:
    'Некорректная ссылка кнопки: укажите адрес, начинающийся с http:// или https://, или путь на этом сайте',
  badBlock: 'Некорректное содержимое блока',
  unknownBlock: 'Блок не найден. Обновите страницу и повторите действие.',
  unknownFile: 'Файл не найден. Загрузите его заново.',
  sortMismatch: 'Список элементов устарел. Обновите страницу и повторите действие.',
} as const;

/* ---------- Tests and questions (docs/product.md §Test authoring) ---------- */

export const DEFAULT_TEST_NAME = 'Новый тест';
export const QUESTION_TEXT_MAX = 255;
export const testParams = z.object({ courseId: dbIdParam, testId: dbIdParam });
export const testIdParams = z.object({ testId: dbIdParam });

const SECONDS_MAX = 359_999; // 99:59:59, what the hh:mm:ss field can hold
const upTo999 = z.number().int().min(1, 'Значение от 1 до 999').max(999, 'Значение от 1 до 999');

/** Every test setting; the switches' values are checked only while their switch is on. */
export const testSettingsFields = z.object({
  passing_score: z.number().int().min(0, 'Проходной балл от 0 до 100').max(100, 'Проходной балл от 0 до 100'),
  has_timer: z.boolean(),
  timer_seconds: z.number().int().min(0).max(SECONDS_MAX),
  has_retake_interval: z.boolean(),
  retake_interval_seconds: z.number().int().min(0).max(SECONDS_MAX),
  has_attempts_limit: z.boolean(),
  max_attempts: z.number().int().min(0).max(999),
  has_question_bank: z.boolean(),
  question_bank_size: z.number().int().min(0).max(999),
  randomize_questions: z.boolean(),
  randomize_answers: z.boolean(),
  show_correct_answers: z.boolean(),
});
export type TestSettings = z.infer<typeof testSettingsFields>;

/** A new test's settings (docs/product.md §Test authoring): every switch off, passing score 0, one attempt, bank size 0. */
export const NEW_TEST_SETTINGS: TestSettings = {
  passing_score: 0,
  has_timer: false,
  timer_seconds: 0,
  has_retake_interval: false,
  retake_interval_seconds: 0,
  has_attempts_limit: false,
  max_attempts: 1,
  has_question_bank: false,
  question_bank_size: 0,
  randomize_questions: false,
  randomize_answers: false,
  show_correct_answers: false,
};

type SettingsLike = Partial<TestSettings>;
/** The rules that tie a value to its switch (docs/product.md §Test authoring), for whole or partial settings. */
function switchRules(v: SettingsLike, ctx: z.RefinementCtx) {
  const need = (on: boolean | undefined, value: number | undefined, path: string, message: string, ok: boolean) => {
    if (on && value !== undefined && !ok) ctx.addIssue({ code: 'custom', path: [path], message });
  };
  need(v.has_timer, v.timer_seconds, 'timer_seconds', 'Укажите время на тест', (v.timer_seconds ?? 0) >= 1);
  need(
    v.has_retake_interval,
    v.retake_interval_seconds,
    'retake_interval_seconds',
    'Укажите интервал между попытками',
    (v.retake_interval_seconds ?? 0) >= 1,
  );
  need(
    v.has_attempts_limit,
    v.max_attempts,
    'max_attempts',
    'Значение от 1 до 999',
    upTo999.safeParse(v.max_attempts).success,
  );
  need(
    v.has_question_bank,
    v.question_bank_size,
    'question_bank_size',
    'Значение от 1 до 999',
    upTo999.safeParse(v.question_bank_size).success,
  );
}

/** Whole settings with their switch rules (the server checks the stored settings merged with a change). */
export const testSettings = testSettingsFields.superRefine(switchRules);
export const BANK_FORCES_ORDER_TOOLTIP = 'Не может быть выключено, пока активная функция «Банк вопросов»';

/** The test as the constructor sees it (settings included). */
export const constructorTest = testSettingsFields.extend({
  id: z.number().int(),
  name: z.string(),
  module_id: z.number().int(),
  type: z.literal('test'),
  is_published: z.boolean(),
  sort_order: z.number().int(),
});
export type ConstructorTest = z.infer<typeof constructorTest>;
export const testResponse = z.object({ result: z.object({ success: ok, test: constructorTest }) });

/** POST /api/courses/tests → result.item */
export const createTestRequest = testSettingsFields
  .partial()
  .extend({
    name: safeText(255).optional(),
    course_id: dbId,
    module_id: dbId,
    sort_order: z.number().int().min(0).max(100000).optional(),
  })
  .superRefine(switchRules);
export const createTestResponse = z.object({ result: z.object({ success: ok, message, item: constructorTest }) });

/** PUT /api/courses/{courseId}/tests/{testId}: the settings; or the name; or the name and is_published. */
export const updateTestRequest = testSettingsFields
  .partial()
  .extend({ name: safeText(255).optional(), is_published: z.boolean().optional() })
  .superRefine(switchRules)
  .refine((v) => Object.keys(v).length > 0, { message: 'Нет данных для сохранения' });
export type UpdateTestRequest = z.infer<typeof updateTestRequest>;
export const updateTestResponse = z.object({ result: z.object({ success: ok, message, item: constructorTest }) });

export const questionAnswer = z.object({
  id: z.number().int(),
  answer_text: z.string(),
  is_correct: z.boolean(),
  image_path: z.string().nullable(),
});
export const testQuestion = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.enum(['text', 'image']),
  question_text: z.string(),
  sort_order: z.number().int(),
  answers: z.array(questionAnswer),
});
export type TestQuestion = z.infer<typeof testQuestion>;
export const questionsResponse = z.object({ result: z.object({ success: ok, questions: z.array(testQuestion) }) });
export const saveQuestionsResponse = z.object({
  result: z.object({ success: ok, message, questions: z.array(testQuestion) }),
});

/** A key of a question or answer in a save: its id, or a temporary id for a new one. */
const itemKey = z.union([dbId, z.string().regex(/^[A-Za-z0-9_-]{1,40}$/)]);
export const saveAnswer = z.object({
  id: itemKey,
  answer_text: safeText(QUESTION_TEXT_MAX),
  is_correct: z.boolean(),
  /** The stored image kept as it is; a new image comes as the file `answerImageField(question, answer)`. */
  image_path: z.string().max(500).nullable().optional(),
});
export const saveQuestion = z.object({
  id: itemKey,
  title: safeText(255).optional(),
  type: z.enum(['text', 'image']),
  question_text: safeText(QUESTION_TEXT_MAX, { required: 'Введите текст вопроса' }),
  sort_order: z.number().int().min(0).max(100000),
  answers: z.array(saveAnswer).min(1, 'Добавьте хотя бы один ответ').max(50),
});
export type SaveQuestion = z.infer<typeof saveQuestion>;
/** The `questions` field of POST /api/admin/tests/{testId}/questions (a JSON text in the multipart body). */
export const saveQuestionsList = z.array(saveQuestion).max(500);

/** The multipart field of a new answer image: keyed by the question's and the answer's id or temporary id. */
export const answerImageField = (questionKey: string | number, answerKey: string | number) =>
  `answer_image.${questionKey}.${answerKey}`;
export const ANSWER_IMAGE_FIELD = /^answer_image\.([A-Za-z0-9_-]{1,40})\.([A-Za-z0-9_-]{1,40})$/;

export const TEST_MESSAGES = {
  created: 'Тест успешно создан',
  settingsSaved: 'Настройки теста успешно сохранены',
  renamed: 'Название теста успешно сохранено',
  published: 'Тест опубликован',
  unpublished: 'Тест снят с публикации',
  deleted: 'Тест успешно удален',
  questionsSaved: 'Вопросы теста успешно сохранены!',
  notFound: 'Тест не найден',
  noCorrect: (question: string) => `Вопрос «${question}»: отметьте хотя бы один правильный ответ`,
  emptyAnswer: (question: string) => `Вопрос «${question}»: заполните текст или изображение каждого ответа`,
  badQuestions: 'Некорректный список вопросов',
  unknownQuestion: 'Вопрос не найден. Обновите страницу и повторите действие.',
} as const;

// ── question statistics for authors (issue 16) ──

/** One question's figures over the finished attempts that asked it (as each attempt's snapshot had it). */
export const questionStatistic = z.object({
  question_id: z.number().int(),
  /** The text in the newest attempt that asked it (later edits do not rewrite history). */
  question_text: z.string(),
  /** Finished attempts that asked the question. */
  asked: z.number().int(),
  /** Of those, attempts that answered it. */
  answered: z.number().int(),
  /** Answers that were exactly the set of correct options, in percent of the answers (null: none). */
  correct_percent: z.number().int().nullable(),
  /** The wrong option chosen most often in wrong answers, with how often (null: no wrong answer). */
  top_wrong_option: z.object({ id: z.number().int(), text: z.string(), count: z.number().int() }).nullable(),
  /** Mean seconds from the attempt's start or its previous answer to this answer (null: no answer). */
  average_seconds: z.number().nullable(),
});
export type QuestionStatistic = z.infer<typeof questionStatistic>;
export const questionStatisticsResponse = z.object({
  result: z.object({ success: ok, attempts: z.number().int(), questions: z.array(questionStatistic) }),
});
