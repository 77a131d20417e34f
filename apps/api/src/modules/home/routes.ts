import { errorResponse, startedLessonsResponse, userCoursesHomeResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HomeService } from './service.js';

const errors = { 401: errorResponse };

export const homeRoutes =
  (home: HomeService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/courses',
      {
        config: { access: 'authenticated', name: 'user.courses' },
        schema: {
          tags: ['home'],
          summary: "The user's visible courses by category",
          response: { 200: userCoursesHomeResponse, ...errors },
        },
      },
      async (request) => {
        const categories = await home.courses((await request.requireUser()).id);
        return { result: { success: true as const, categories } };
      },
    );

    app.get(
      '/api/user/started-lessons',
      {
        config: { access: 'authenticated', name: 'user.started-lessons' },
        schema: {
          tags: ['home'],
          summary: 'Lessons started and not finished',
          response: { 200: startedLessonsResponse, ...errors },
        },
      },
      async (request) => {
        const items = await home.startedLessons((await request.requireUser()).id);
        return { result: { success: true as const, items } };
      },
    );
  };
