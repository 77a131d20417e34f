import { z } from 'zod';
import { dbIdParam } from './common.js';
import { lessonKind } from './scorm.js';

/** The learner's course, lesson and progress calls (docs/product.md §Course page). */

const ok = z.literal(true);
export const learnerCourseParams = z.object({ courseId: dbIdParam });
export const learnerLessonParams = z.object({ courseId: dbIdParam, lessonId: dbIdParam });
export const lessonIdParams = z.object({ lessonId: dbIdParam });

export const itemRef = z.object({ type: z.enum(['lesson', 'test']), id: z.number().int() });
export type ItemRef = z.infer<typeof itemRef>;

/** Module item (docs/product.md §Course page): what the course page and the contents panel list. */
export const moduleItem = z.object({
  id: z.number().int(),
  type: z.enum(['lesson', 'test']),
  name: z.string(),
  image: z.string().nullable(),
  /** `/courses/{courseId}/{type}/{id}` */
  link: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** Tests: true when an attempt of the current cycle passed, false when attempts all failed, else null. */
  is_passed: z.boolean().nullable(),
  /** Lessons: 'scorm' when the lesson is a SCORM package. */
  kind: lessonKind.optional(),
  /** SCORM items: the score in percent the package reported in the current cycle (null: none). */
  score: z.number().nullable().optional(),
});
export type ModuleItem = z.infer<typeof moduleItem>;
export const learnerModule = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['complete', 'process']),
  lessonsList: z.array(moduleItem),
});
export type LearnerModule = z.infer<typeof learnerModule>;
export const modulesStructuredResponse = z.object({
  result: z.object({ success: ok, modules: z.array(learnerModule) }),
});

/** GET /api/admin/courses/{id}: the course summary (docs/product.md §Course page); staff also get the constructor fields. */
export const courseSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  lessons_count: z.number().int(),
  completed_lessons_count: z.number().int(),
  tests_count: z.number().int(),
  completed_tests_count: z.number().int(),
  progress: z.number().int(),
  complete: z.boolean(),
  deadline: z.string().nullable(),
  deadline_status: z.enum(['overdue', 'almost_overdue', 'in_order']).nullable(),
  is_published: z.boolean().optional(),
  accessibility: z.enum(['everyone', 'enrolled_only', 'nobody']).optional(),
});
export type CourseSummary = z.infer<typeof courseSummary>;
export const courseSummaryResponse = z.object({ result: z.object({ success: ok, course: courseSummary }) });

/** A content block as the lesson page reads it (docs/product.md §Lesson page): structured contents as JSON text. */
export const learnerBlock = z.object({
  id: z.number().int(),
  type: z.enum(['title', 'description', 'text', 'video', 'image', 'file', 'button']),
  content: z.string().nullable(),
  file_path: z.string().nullable(),
  url: z.string().nullable(),
  original_filename: z.string().nullable(),
  sort_order: z.number().int(),
});
export type LearnerBlock = z.infer<typeof learnerBlock>;
export const lessonContentsResponse = z.object({
  result: z.object({
    success: ok,
    contents: z.array(learnerBlock),
    name: z.string(),
    /** 'scorm': the lesson is a SCORM package (its player: GET …/scorm/state, POST …/scorm/launch). */
    kind: lessonKind.optional(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    previous_item: itemRef.nullable(),
    next_item: itemRef.nullable(),
    /** The server's clock, so that the lesson timer does not trust the device's. */
    server_time: z.string(),
  }),
});
export type LessonContents = z.infer<typeof lessonContentsResponse>['result'];

export const lessonProgressResponse = z.object({
  result: z.object({
    success: ok,
    message: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
  }),
});

export const LEARNING_MESSAGES = {
  started: 'Урок успешно начат',
  completed: 'Урок успешно завершен',
  courseNotFound: 'Курс не найден',
  lessonNotFound: 'Урок не найден',
  scormCompletesItself: 'SCORM-урок засчитывается сам, когда пакет сообщит о прохождении',
} as const;

/* ---------- Test taking (docs/product.md §Test introduction, §Test taking, §Test result) ---------- */

export const learnerTestParams = z.object({ courseId: dbIdParam, testId: dbIdParam });
export const attemptResultParams = z.object({ courseId: dbIdParam, testId: dbIdParam, attemptId: dbIdParam });

/** Attempt (docs/product.md §Test taking). */
export const attemptView = z.object({
  id: z.number().int(),
  attempt_number: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** Seconds since the start by the server's clock (an open attempt), or until its finish. */
  elapsed_seconds: z.number().int(),
  duration_seconds: z.number().int().nullable(),
  score: z.number().int().nullable(),
  correct_answers: z.number().int().nullable(),
  is_passed: z.boolean().nullable(),
  /** When the attempt's time runs out by the server's clock (null: no timer); fixed at its start. */
  expires_at: z.string().nullable(),
  /** The pass mark this attempt is graded against (kept at its start; the test's own for older ones). */
  passing_score: z.number().int(),
});
export type AttemptView = z.infer<typeof attemptView>;

/** Option (docs/product.md §Test taking): `is_correct` only on a finished attempt's review with show_correct_answers. */
export const questionOption = z.object({
  id: z.number().int(),
  value: z.string(),
  is_correct: z.boolean().optional(),
  is_selected: z.boolean(),
});
export const attemptQuestion = z.object({
  id: z.number().int(),
  question: z.string(),
  type: z.enum(['text', 'image']),
  /** More than one correct option. */
  multiple: z.boolean(),
  /** How many options are correct (how many to choose), never which. */
  correctAnswers: z.number().int(),
  isAnswered: z.boolean(),
  /** Captions of image options (their texts), in option order. */
  labels: z.array(z.string()),
  options: z.array(questionOption),
});
export type AttemptQuestion = z.infer<typeof attemptQuestion>;

export const learnerTest = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Only the open attempt's questions, in its order. */
  questions: z.array(attemptQuestion),
  questions_count: z.number().int(),
  timer_seconds: z.number().int(),
  has_timer: z.boolean(),
  passing_score: z.number().int(),
  retake_interval_seconds: z.number().int(),
  max_attempts: z.number().int(),
  has_attempts_limit: z.boolean(),
  is_blocked: z.boolean(),
  /** Present with is_blocked: when the next attempt may start, or null for ever. */
  blocked_until: z.string().nullable().optional(),
  last_attempt: attemptView.nullable(),
  attempts: z.array(attemptView),
  active_attempts: z.array(attemptView),
  /** The first passed attempt of the learner's current cycle of the course, or null. */
  passed_attempt: attemptView.nullable(),
});
export type LearnerTest = z.infer<typeof learnerTest>;
export const learnerTestResponse = z.object({
  result: z.object({
    success: ok,
    test: learnerTest.passthrough(),
    previous_item: itemRef.nullable(),
    next_item: itemRef.nullable(),
    /** The server's clock, so that the countdown to `expires_at` does not trust the device's. */
    server_time: z.string(),
  }),
});

export const startAttemptRequest = z.object({ course_test_id: z.number().int().positive().max(2_147_483_647) });
export const startAttemptResponse = z.object({
  result: z.object({ success: ok, message: z.string(), attempt: z.object({ id: z.number().int() }) }),
});
/** A refused start: `blocked_until` present (null: blocked for ever) when the test is blocked. */
export const blockedAttemptResponse = z.object({
  result: z.object({ success: z.literal(false), message: z.string(), blocked_until: z.string().nullable().optional() }),
});

export const saveAnswersRequest = z.object({
  attempt_id: z.number().int().positive().max(2_147_483_647),
  answers: z
    .array(
      z.object({
        test_question_id: z.number().int().positive().max(2_147_483_647),
        answer: z.array(z.number().int().positive().max(2_147_483_647)).min(1, 'Выберите ответ').max(50),
      }),
    )
    .min(1)
    .max(500),
});
export const saveAnswersResponse = z.object({ result: z.object({ success: ok, message: z.string() }) });

export const finishAttemptRequest = z.object({ attempt_id: z.number().int().positive().max(2_147_483_647) });
export const finishAttemptResponse = z.object({
  result: z.object({
    success: ok,
    message: z.string(),
    attempt: attemptView,
    score: z.number().int(),
    correct_answers: z.number().int(),
    is_passed: z.boolean(),
    finished_at: z.string(),
  }),
});

export const attemptResultResponse = z.object({
  result: z.object({
    success: ok,
    test: z.object({
      id: z.number().int(),
      name: z.string(),
      questions: z.array(attemptQuestion),
      questions_count: z.number().int(),
      passing_score: z.number().int(),
      show_correct_answers: z.boolean(),
      max_attempts: z.number().int(),
      has_attempts_limit: z.boolean(),
      is_blocked: z.boolean(),
      attempt: attemptView,
      next_item: itemRef.nullable(),
    }),
  }),
});

export const ATTEMPT_MESSAGES = {
  started: 'Тест начат!',
  continued: 'Продолжаем тест!',
  finished: 'Тест завершен!',
  saved: 'Ответ сохранен',
  empty: 'Тест не заполнен. Обратитесь к администратору для настройки теста.',
  blockedForever: 'Вы исчерпали все доступные попытки.',
  blockedUntil: 'Следующая попытка пока недоступна.',
  notFound: 'Тест не найден',
  attemptNotFound: 'Попытка не найдена',
  attemptFinished: 'Попытка уже завершена',
  timeIsUp: 'Время теста истекло! Попытка завершена.',
  alreadyAnswered: 'На этот вопрос уже дан другой ответ',
  wrongOption: 'Выбранный ответ не относится к вопросу',
  oneOption: 'Для этого вопроса можно выбрать только один ответ',
  notFinished: 'Попытка ещё не завершена',
} as const;
