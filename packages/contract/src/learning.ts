import { z } from 'zod';
import { dbIdParam } from './common.js';

/** The learner's course, lesson and progress calls (spec 02 §3, §7). */

const ok = z.literal(true);
export const learnerCourseParams = z.object({ courseId: dbIdParam });
export const learnerLessonParams = z.object({ courseId: dbIdParam, lessonId: dbIdParam });
export const lessonIdParams = z.object({ lessonId: dbIdParam });

export const itemRef = z.object({ type: z.enum(['lesson', 'test']), id: z.number().int() });
export type ItemRef = z.infer<typeof itemRef>;

/** Module item (spec 02 §3): what the course page and the contents panel list. */
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

/** GET /api/admin/courses/{id}: the course summary (spec 02 §3); staff also get the constructor fields. */
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

/** A content block as the lesson page reads it (spec 02 §3): structured contents as JSON text. */
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
} as const;
