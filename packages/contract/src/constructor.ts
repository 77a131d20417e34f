import { z } from 'zod';
import { dbId, dbIdParam, safeText } from './common.js';

/** Course constructor calls (spec 03 §2.4, §3, §7 "Constructor"). */

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

export const courseParams = z.object({ courseId: dbIdParam });
export const moduleParams = z.object({ courseId: dbIdParam, moduleId: dbIdParam });
export const lessonParams = z.object({ courseId: dbIdParam, lessonId: dbIdParam });

export const deadlineType = z.enum(['from_enrollment', 'from_start']);
export const accessibility = z.enum(['everyone', 'enrolled_only', 'nobody']);
const setting = z.number().int().min(1, 'Значение от 1 до 999').max(999, 'Значение от 1 до 999');

/** GET /api/courses/{courseId} → result.course (spec 03 §3 "Course (constructor)"). */
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

/** A lesson or test in a module list (spec 03 §3 "Module": lessons[], tests[]). */
export const moduleLesson = z.object({
  id: z.number().int(),
  name: z.string(),
  module_id: z.number().int(),
  is_published: z.boolean(),
  sort_order: z.number().int(),
  type: z.literal('lesson'),
});
export const moduleTest = moduleLesson.extend({ type: z.literal('test') });
export type ModuleLesson = z.infer<typeof moduleLesson>;
export type ModuleTest = z.infer<typeof moduleTest>;

export const constructorModule = z.object({
  id: z.number().int(),
  name: z.string(),
  course_id: z.number().int(),
  sort_order: z.number().int(),
  /** The viewer's own progress in the module (DESIGN.md §6 "Progress"). */
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

/** A lesson content block as the server answers it (spec 03 §3 "Lesson content block"). */
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
  contents: z.array(lessonBlock),
});
export type ConstructorLesson = z.infer<typeof constructorLesson>;
export const lessonResponse = z.object({ result: z.object({ success: ok, lesson: constructorLesson }) });

/** POST /api/courses/lessons → result.item */
export const createLessonRequest = z.object({
  name: safeText(255).optional(),
  module_id: dbId,
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
  badImage: 'Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif',
  imageTooLarge: 'Размер файла не должен превышать 20 МБ',
  fileTooLarge: 'Размер файла не должен превышать 4 ГБ',
  noFile: 'Файл не выбран',
  uploadAborted: 'Загрузка файла прервана',
  buttonLabel: 'Название кнопки не должно превышать 40 символов',
  tooManyButtons: 'Не более двух кнопок в блоке',
  badLink: 'Некорректная ссылка',
  badBlock: 'Некорректное содержимое блока',
  unknownBlock: 'Блок не найден. Обновите страницу и повторите действие.',
  unknownFile: 'Файл не найден. Загрузите его заново.',
  sortMismatch: 'Список элементов устарел. Обновите страницу и повторите действие.',
} as const;
