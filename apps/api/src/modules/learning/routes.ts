import {
  LEARNING_MESSAGES as L,
  courseSummaryResponse,
  errorResponse,
  learnerCourseParams,
  learnerLessonParams,
  lessonContentsResponse,
  lessonIdParams,
  lessonProgressResponse,
  modulesStructuredResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LearningService } from './service.js';

const errors = { 401: errorResponse, 404: errorResponse, 422: errorResponse };
const tags = ['learning'];

/** The learner's course and lesson calls (docs/product.md §Course page, the first five). */
export const learningRoutes =
  (learning: LearningService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/courses/:courseId/modules-structured',
      {
        config: { access: 'authenticated', name: 'api.courses.modules-structured' },
        schema: { tags, params: learnerCourseParams, response: { 200: modulesStructuredResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        return { result: { success: true as const, modules: await learning.modules(user, request.params.courseId) } };
      },
    );

    app.get(
      '/api/admin/courses/:courseId',
      {
        config: { access: 'authenticated', name: 'api.admin.courses.show' },
        schema: { tags, params: learnerCourseParams, response: { 200: courseSummaryResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        return { result: { success: true as const, course: await learning.summary(user, request.params.courseId) } };
      },
    );

    app.get(
      '/api/courses/:courseId/lessons/:lessonId/contents',
      {
        config: { access: 'authenticated', name: 'api.courses.lessons.contents.show' },
        schema: { tags, params: learnerLessonParams, response: { 200: lessonContentsResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        return {
          result: await learning.lessonContents(user, request.params.courseId, request.params.lessonId),
        };
      },
    );

    for (const what of ['start', 'complete'] as const) {
      app.post(
        `/api/lessons/:lessonId/${what}`,
        {
          config: { access: 'authenticated', name: `api.lessons.${what}` },
          schema: { tags, params: lessonIdParams, response: { 200: lessonProgressResponse, ...errors } },
        },
        async (request) => {
          const user = await request.requireUser();
          const times = await learning.mark(user, request.params.lessonId, what);
          return {
            result: { success: true as const, message: what === 'start' ? L.started : L.completed, ...times },
          };
        },
      );
    }
  };
