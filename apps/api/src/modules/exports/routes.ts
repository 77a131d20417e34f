import { PassThrough } from 'node:stream';
import {
  adminUsersExportQuery,
  analyticsExportQuery,
  auditExportQuery,
  certificatesExportQuery,
  errorResponse,
} from '@lms/contract';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ExportFile, ExportsService } from './service.js';
import { attachment, CONTENT_TYPE, writeSheets } from './writer.js';

const errors = { 401: errorResponse, 403: errorResponse, 422: errorResponse };

/**
 * Streams the file as it is written: the headers go out with the first bytes, rows follow batch by
 * batch. A failure after that can only cut the download short (and is logged).
 */
function download(reply: FastifyReply, log: FastifyBaseLogger, file: ExportFile) {
  const out = new PassThrough();
  writeSheets(file.format, file.sheets, out).catch((error: unknown) => {
    if (!out.destroyed) log.error({ err: error }, 'export failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', CONTENT_TYPE[file.format])
    .header('content-disposition', attachment(file.asciiName, file.name))
    .header('cache-control', 'no-store')
    .send(out);
}

/**
 * Spreadsheet exports (issues 16, 32): each checks the same access as the screen's own data route
 * (GET /api/analytics/users, GET /api/admin/users, GET /api/admin/audit) and holds exactly that
 * screen's rows.
 */
export const exportsRoutes =
  (exportsService: ExportsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/analytics/export',
      {
        config: { access: 'analytics.view', name: 'api.analytics.export' },
        schema: {
          tags: ['analytics'],
          summary:
            'The analytics screen with its filters as an .xlsx or .csv file (a manager: their department); the xlsx adds a sheet per course',
          querystring: analyticsExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await exportsService.analytics(await request.requireUser(), request.query);
        return download(reply, request.log, file);
      },
    );

    app.get(
      '/api/analytics/export/courses',
      {
        config: { access: 'analytics.view', name: 'api.analytics.export.courses' },
        schema: {
          tags: ['analytics'],
          summary:
            'For the employees the analytics screen shows with its filters, one row per enrolled course (status, progress, deadline, completion date, last activity), as .csv or .xlsx',
          querystring: analyticsExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await exportsService.analyticsCourses(await request.requireUser(), request.query);
        return download(reply, request.log, file);
      },
    );

    app.get(
      '/api/analytics/export/scorm',
      {
        config: { access: 'analytics.view', name: 'api.analytics.export.scorm' },
        schema: {
          tags: ['analytics'],
          summary:
            'For the employees the analytics screen shows with its filters, one row per SCORM package of each enrolled course (status, score, version, time, last activity), as .csv or .xlsx',
          querystring: analyticsExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await exportsService.analyticsPackages(await request.requireUser(), request.query);
        return download(reply, request.log, file);
      },
    );

    app.get(
      '/api/admin/certificates/export',
      {
        config: { access: 'settings.manage', name: 'api.admin.certificates.export' },
        schema: {
          tags: ['settings'],
          summary: 'The certificates list with its filters, every page, as .xlsx or .csv',
          querystring: certificatesExportQuery,
          response: errors,
        },
      },
      async (request, reply) => download(reply, request.log, exportsService.certificates(request.query)),
    );

    app.get(
      '/api/admin/users/export',
      {
        config: { access: 'settings.manage', name: 'admin.users.export' },
        schema: {
          tags: ['settings'],
          summary: 'The employees tab with its search and sort, every page, as an .xlsx or .csv file',
          querystring: adminUsersExportQuery,
          response: errors,
        },
      },
      async (request, reply) => download(reply, request.log, exportsService.employees(request.query)),
    );

    app.get(
      '/api/admin/audit/export',
      {
        config: { access: 'settings.manage', name: 'admin.audit.export' },
        schema: {
          tags: ['settings'],
          summary: 'The audit of people changes with its filters, every page, newest first, as an .xlsx or .csv file',
          querystring: auditExportQuery,
          response: errors,
        },
      },
      async (request, reply) => download(reply, request.log, exportsService.audit(request.query)),
    );
  };
