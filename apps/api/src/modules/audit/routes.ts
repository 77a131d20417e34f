import { auditQuery, auditResponse, errorResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditService } from './service.js';

/** The audit of people changes under the school settings: admins only. */
export const auditRoutes =
  (audit: AuditService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/audit',
      {
        config: { access: 'settings.manage', name: 'admin.audit' },
        schema: {
          tags: ['settings'],
          summary: 'Who added, changed or deleted employees and assigned courses, newest first, one page at a time',
          querystring: auditQuery,
          response: { 200: auditResponse, 401: errorResponse, 403: errorResponse, 422: errorResponse },
        },
      },
      async (request) => ({ result: { success: true as const }, ...(await audit.page(request.query)) }),
    );
  };
