import { errorResponse, mailLogQuery, mailLogResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MailLogService } from './service.js';

/** The mail log under the school settings (issue 16): admins only, like the other settings calls. */
export const mailLogRoutes =
  (mailLog: MailLogService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/mail-log',
      {
        config: { access: 'settings.manage', name: 'admin.mail-log' },
        schema: {
          tags: ['settings'],
          summary: 'Delivered mails, newest first, one page at a time',
          querystring: mailLogQuery,
          response: { 200: mailLogResponse, 401: errorResponse, 403: errorResponse, 422: errorResponse },
        },
      },
      async (request) => ({ result: { success: true as const }, ...(await mailLog.page(request.query)) }),
    );
  };
