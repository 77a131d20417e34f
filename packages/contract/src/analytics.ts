import { z } from 'zod';
import { lessonKind } from './scorm.js';
import { dbIdParam } from './common.js';

/** Manager and admin analytics (docs/product.md §Analytics). */

export const analyticsUserParams = z.object({ id: dbIdParam });
export const analyticsCourseParams = z.object({ courseId: dbIdParam, userId: dbIdParam });

export const analyticsEmployee = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** The employee's department name (shown in exports). */
  department: z.string().nullable(),
  photo: z.string().nullable(),
  /** The most urgent course's deadline as shown (dd.mm.yyyy), or '' without one. */
  deadline: z.string(),
  /** The same deadline as an ISO time, for sorting and exports. */
  deadline_at: z.string().nullable(),
  percent: z.number().int(),
  last_activity: z.string().nullable(),
  course: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type AnalyticsEmployee = z.infer<typeof analyticsEmployee>;
export const analyticsOverviewResponse = z.object({
  result: z.object({
    success: z.literal(true),
    analytic: z.object({
      overdue: z.array(analyticsEmployee),
      almost_overdue: z.array(analyticsEmployee),
      in_order: z.array(analyticsEmployee),
    }),
  }),
});

export const employeeCourse = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  category_name: z.string().nullable(),
  items_completed: z.number().int(),
  items_total: z.number().int(),
  progress: z.number().int(),
  is_expired: z.boolean(),
  deadline: z.string().nullable(),
});
export const employeeDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  photo: z.string().nullable(),
  position: z.string().nullable(),
  department: z.string().nullable(),
  email: z.string(),
  /** The line manager's name (issue 32), if any. */
  manager: z.string().nullable(),
  last_activity: z.string().nullable(),
  total_progress: z.number().int(),
  courses: z.array(employeeCourse),
});
export type EmployeeDetail = z.infer<typeof employeeDetail>;
export const employeeDetailResponse = z.object({
  result: z.object({ success: z.literal(true), user: employeeDetail }),
});

export const analyticsItem = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['lesson', 'test']),
  status: z.enum(['completed', 'failed', 'in_progress', 'not_started']),
  /** Lessons: 'scorm' when the lesson is a SCORM package. */
  kind: lessonKind.optional(),
  /** SCORM items: the score in percent the package reported in the current cycle (null: none). */
  score: z.number().nullable().optional(),
});
export const analyticsModule = z.object({
  id: z.number().int(),
  name: z.string(),
  items_completed: z.number().int(),
  items_total: z.number().int(),
  items: z.array(analyticsItem),
});
export const employeeCourseDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  deadline: z.string().nullable(),
  items_completed: z.number().int(),
  items_total: z.number().int(),
  progress: z.number().int(),
  modules: z.array(analyticsModule),
});
export type EmployeeCourseDetail = z.infer<typeof employeeCourseDetail>;
export const employeeCourseResponse = z.object({
  result: z.object({ success: z.literal(true), course: employeeCourseDetail }),
});

export const ANALYTICS_MESSAGES = {
  userNotFound: 'Сотрудник не найден',
  courseNotFound: 'Курс не найден',
} as const;
