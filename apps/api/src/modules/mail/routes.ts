import {
  MAIL_LOG_MESSAGES,
  errorResponse,
  idParam,
  mailLogQuery,
  mailLogResponse,
  mailResendResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MailLogService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };

/** The mail log under the school settings (issues 16, 30): admins only, like the other settings calls. */
export const mailLogRoutes =
  (mailLog: MailLogService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/mail-log',
      {
        config: { access: 'settings.manage', name: 'admin.mail-log' },
        schema: {
          tags: ['settings'],
          summary: 'Every mail with its status (queued, sent, failed), newest first, one page at a time',
          querystring: mailLogQuery,
          response: { 200: mailLogResponse, 401: errorResponse, 403: errorResponse, 422: errorResponse },
        },
      },
      async (request) => ({ result: { success: true as const }, ...(await mailLog.page(request.query)) }),
    );

    app.post(
      '/api/admin/mail-log/:id/resend',
      {
        config: { access: 'settings.manage', name: 'admin.mail-log.resend' },
        schema: {
          tags: ['settings'],
          summary: 'Queues a failed mail again (404 unknown, 422 not failed)',
          params: idParam,
          response: { 200: mailResendResponse, ...errors },
        },
      },
      async (request) => ({
        result: { success: true as const, message: MAIL_LOG_MESSAGES.resent },
        item: await mailLog.resend(request.params.id),
      }),
    );
  };
