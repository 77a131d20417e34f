import type { MultipartFile } from '@fastify/multipart';
import { PassThrough } from 'node:stream';
import {
  PEOPLE_IMPORT_MAX_BYTES,
  appliedMessage,
  errorResponse,
  peopleBatchParam,
  peopleBatchResponse,
  peopleBatchRowsQuery,
  peopleBatchRowsResponse,
  peopleImportOptions,
  peopleTemplateQuery,
  type ExportFormat,
} from '@lms/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { HttpError, unprocessable } from '../../platform/errors.js';
import { siteAddress } from '../../platform/security.js';
import { actorOf } from '../audit/service.js';
import { attachment, CONTENT_TYPE, writeSheets } from '../exports/writer.js';
import type { PeopleImportService } from './service.js';
import { templateSheets } from './template.js';

const errors = {
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  422: errorResponse,
};
const access = 'settings.manage' as const;
const tags = ['settings'];

export const UPLOAD_MESSAGES = {
  noFile: 'Выберите файл с сотрудниками',
  tooLarge: `Файл больше ${PEOPLE_IMPORT_MAX_BYTES / 1024 / 1024} МБ: разделите его на несколько файлов`,
} as const;

/** The fields sent before the file part (the client appends them first). */
function fieldsOf(part: MultipartFile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(part.fields)) {
    const one = Array.isArray(field) ? field[0] : field;
    if (one && one.type === 'field' && typeof one.value === 'string') out[name] = one.value;
  }
  return out;
}

/** The uploaded file, read up to its limit (one byte more marks it too large). */
async function uploaded(request: FastifyRequest) {
  if (!request.isMultipart()) throw unprocessable(UPLOAD_MESSAGES.noFile, { file: [UPLOAD_MESSAGES.noFile] });
  const part = await request.file({
    limits: { fileSize: PEOPLE_IMPORT_MAX_BYTES + 1, files: 1, fields: 10, fieldSize: 1024 },
  });
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw unprocessable(UPLOAD_MESSAGES.noFile, { file: [UPLOAD_MESSAGES.noFile] });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > PEOPLE_IMPORT_MAX_BYTES) {
      part.file.resume();
      throw new HttpError(413, UPLOAD_MESSAGES.tooLarge);
    }
    chunks.push(chunk);
  }
  if (part.file.truncated) throw new HttpError(413, UPLOAD_MESSAGES.tooLarge);
  if (size === 0) throw unprocessable(UPLOAD_MESSAGES.noFile, { file: [UPLOAD_MESSAGES.noFile] });
  const options = peopleImportOptions.safeParse(fieldsOf(part));
  if (!options.success) throw unprocessable(UPLOAD_MESSAGES.noFile);
  return { bytes: Buffer.concat(chunks), name: part.filename, options: options.data };
}

/** The template file, written as it is sent. */
function template(reply: FastifyReply, format: ExportFormat) {
  const out = new PassThrough();
  writeSheets(format, templateSheets(format), out).catch((error: unknown) => {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', CONTENT_TYPE[format])
    .header('content-disposition', attachment(`employees-template.${format}`, `Шаблон импорта сотрудников.${format}`))
    .send(out);
}

/** Importing employees from a spreadsheet (Настройка школы → Сотрудники → 'Импорт'): admins only. */
export const peopleImportRoutes =
  (people: PeopleImportService, config: Config): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/people-import/template',
      {
        config: { access, name: 'admin.people-import.template' },
        schema: {
          tags,
          summary: 'The import template (.xlsx or .csv)',
          querystring: peopleTemplateQuery,
          response: errors,
        },
      },
      async (request, reply) => template(reply, request.query.format),
    );

    app.post(
      '/api/admin/people-import',
      {
        config: { access, name: 'admin.people-import' },
        schema: {
          tags,
          summary:
            'A dry run: reads the file (multipart: create_departments, delete_missing, send_welcome, then file) and stores what importing it would do',
          response: { 201: peopleBatchResponse, ...errors },
        },
      },
      async (request, reply) => {
        const actor = actorOf(await request.requireUser());
        const { bytes, name, options } = await uploaded(request);
        const batch = await people.preview(actor, { bytes, name }, options);
        return reply.code(201).send({ result: { success: true as const }, data: batch });
      },
    );

    app.get(
      '/api/admin/people-import/:id',
      {
        config: { access, name: 'admin.people-import.show' },
        schema: { tags, params: peopleBatchParam, response: { 200: peopleBatchResponse, ...errors } },
      },
      async (request) => ({ result: { success: true as const }, data: await people.batch(request.params.id) }),
    );

    app.get(
      '/api/admin/people-import/:id/rows',
      {
        config: { access, name: 'admin.people-import.rows' },
        schema: {
          tags,
          summary: 'The dry run row by row, in file order, optionally of one action',
          params: peopleBatchParam,
          querystring: peopleBatchRowsQuery,
          response: { 200: peopleBatchRowsResponse, ...errors },
        },
      },
      async (request) => ({
        result: { success: true as const },
        ...(await people.rows(request.params.id, request.query)),
      }),
    );

    app.post(
      '/api/admin/people-import/:id/apply',
      {
        config: { access, name: 'admin.people-import.apply' },
        schema: {
          tags,
          summary: 'Writes what the dry run showed in one transaction (409 when the company changed since)',
          params: peopleBatchParam,
          response: { 200: peopleBatchResponse, ...errors },
        },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const batch = await people.apply(actor, request.params.id, siteAddress(config, request));
        return { result: { success: true as const, message: appliedMessage(batch.counts) }, data: batch };
      },
    );
  };
