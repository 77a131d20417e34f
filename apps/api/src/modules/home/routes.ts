import { errorResponse, startedLessonsResponse, userCoursesHomeResponse } from '@lms/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unauthorized } from '../../platform/errors.js';
import { sendJsonText } from '../../platform/sendJsonText.js';
import type { HomeService, HomeViewer } from './service.js';

const errors = { 401: errorResponse };

/** The signed-in viewer with the versions read with their session (what kept answers depend on). */
async function viewerOf(request: FastifyRequest): Promise<HomeViewer> {
  const session = await request.currentSession();
  if (!session) throw unauthorized();
  return { userId: session.user.id, versions: session.versions };
}

// Both answers are sent as the JSON text HomeService keeps per viewer, written by the writers of the
// schemas below, which document them.
export const homeRoutes =
  (home: HomeService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/courses',
      {
        config: { access: 'authenticated', name: 'user.courses', readsVersions: true },
        schema: {
          tags: ['home'],
          summary: "The user's visible courses by category",
          response: { 200: userCoursesHomeResponse, ...errors },
        },
      },
      async (request, reply) => sendJsonText(reply, await home.coursesAnswer(await viewerOf(request))),
    );

    app.get(
      '/api/user/started-lessons',
      {
        config: { access: 'authenticated', name: 'user.started-lessons', readsVersions: true },
        schema: {
          tags: ['home'],
          summary: 'Lessons started and not finished',
          response: { 200: startedLessonsResponse, ...errors },
        },
      },
      async (request, reply) => sendJsonText(reply, await home.startedLessonsAnswer(await viewerOf(request))),
    );
  };
