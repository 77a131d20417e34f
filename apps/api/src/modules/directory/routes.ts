import { directorySyncStatusResponse, errorResponse, peopleBatchResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/service.js';
import type { DirectorySync } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 422: errorResponse, 502: errorResponse };

/**
 * The admins' side of the directory sync: whether it is set up and when it last ran, and the
 * 'Синхронизировать' button's dry run; applying it is `POST /api/admin/people-import/{id}/apply`,
 * as for a file.
 */
export const directoryRoutes =
  (sync: DirectorySync): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/directory-sync',
      {
        config: { access: 'settings.manage', name: 'admin.directory-sync.status' },
        schema: { tags: ['settings'], response: { 200: directorySyncStatusResponse, ...errors } },
      },
      async () => ({
        result: { success: true as const },
        data: { configured: sync.configured, interval_minutes: sync.intervalMinutes, last: await sync.last() },
      }),
    );

    app.post(
      '/api/admin/directory-sync',
      {
        config: { access: 'settings.manage', name: 'admin.directory-sync' },
        schema: {
          tags: ['settings'],
          summary: 'A dry run of the sync with the directory (502 when it cannot be read)',
          response: { 201: peopleBatchResponse, ...errors },
        },
      },
      async (request, reply) => {
        const batch = await sync.dryRun(actorOf(await request.requireUser()));
        return reply.code(201).send({ result: { success: true as const }, data: batch });
      },
    );
  };
