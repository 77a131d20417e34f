import {
  analyticsCourseParams,
  analyticsOverviewResponse,
  analyticsUserParams,
  employeeCourseResponse,
  employeeDetailResponse,
  errorResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendJsonText } from '../../platform/sendJsonText.js';
import type { AnalyticsService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse };
const access = 'analytics.view' as const;
const tags = ['analytics'];

/** Analytics calls (docs/product.md §Analytics). */
export const analyticsRoutes =
  (analytics: AnalyticsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/analytics/users',
      {
        config: { access, name: 'api.analytics.users' },
        schema: { tags, response: { 200: analyticsOverviewResponse, ...errors } },
      },
      // Written in chunks as it is produced (AnalyticsService.overviewJson); the schema above documents it.
      async (request, reply) => sendJsonText(reply, await analytics.overviewJson(await request.requireUser())),
    );

    app.get(
      '/api/analytics/users/:id',
      {
        config: { access, name: 'api.analytics.user' },
        schema: { tags, params: analyticsUserParams, response: { 200: employeeDetailResponse, ...errors } },
      },
      async (request) => ({
        result: {
          success: true as const,
          user: await analytics.employee(await request.requireUser(), request.params.id),
        },
      }),
    );

    app.get(
      '/api/analytics/courses/:courseId/user/:userId',
      {
        config: { access, name: 'api.analytics.course' },
        schema: { tags, params: analyticsCourseParams, response: { 200: employeeCourseResponse, ...errors } },
      },
      async (request) => ({
        result: {
          success: true as const,
          course: await analytics.course(await request.requireUser(), request.params.courseId, request.params.userId),
        },
      }),
    );
  };
