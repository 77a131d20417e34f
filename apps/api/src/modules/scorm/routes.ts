import {
  SCORM_LIMITS,
  SCORM_MESSAGES as S,
  errorResponse,
  scormLaunchRequest,
  scormLaunchResponse,
  scormLessonParams,
  scormPackagesResponse,
  scormStateResponse,
  scormUploadResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unprocessable } from '../../platform/errors.js';
import type { ScormService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse, 422: errorResponse };

/** The constructor's and the learner's SCORM calls (docs/product.md §SCORM packages). */
export const scormRoutes =
  (scorm: ScormService): FastifyPluginAsyncZod =>
  async (app) => {
    const path = '/api/courses/:courseId/lessons/:lessonId/scorm';

    app.get(
      path,
      {
        config: { access: 'constructor.manage', name: 'api.courses.lessons.scorm.index' },
        schema: {
          tags: ['constructor'],
          params: scormLessonParams,
          response: { 200: scormPackagesResponse, ...errors },
        },
      },
      async (request) => ({
        result: {
          success: true as const,
          versions: await scorm.versions(request.params.courseId, request.params.lessonId),
        },
      }),
    );

    app.post(
      path,
      {
        config: { access: 'constructor.manage', name: 'api.courses.lessons.scorm.store' },
        schema: {
          tags: ['constructor'],
          params: scormLessonParams,
          consumes: ['multipart/form-data'],
          response: { 200: scormUploadResponse, ...errors },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        if (!request.isMultipart()) throw unprocessable(S.noFile, { file: [S.noFile] });
        // One byte over the limit marks the upload too large (the part reports `truncated`).
        const part = await request.file({
          limits: { fileSize: SCORM_LIMITS.uploadBytes + 1, files: 1, fields: 10, fieldSize: 1024 },
        });
        if (!part || part.fieldname !== 'file') {
          part?.file.resume();
          throw unprocessable(S.noFile, { file: [S.noFile] });
        }
        const { info, replaced } = await scorm.upload(user, request.params.courseId, request.params.lessonId, {
          stream: part.file,
          filename: part.filename,
        });
        return { result: { success: true as const, message: replaced ? S.replaced : S.uploaded, package: info } };
      },
    );

    app.get(
      `${path}/state`,
      {
        config: { access: 'authenticated', name: 'api.courses.lessons.scorm.state' },
        schema: { tags: ['learning'], params: scormLessonParams, response: { 200: scormStateResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const { courseId, lessonId } = request.params;
        return { result: { success: true as const, scorm: await scorm.state(user, courseId, lessonId) } };
      },
    );

    app.post(
      `${path}/launch`,
      {
        config: { access: 'authenticated', name: 'api.courses.lessons.scorm.launch' },
        schema: {
          tags: ['learning'],
          params: scormLessonParams,
          body: scormLaunchRequest,
          response: { 200: scormLaunchResponse, ...errors },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        const { courseId, lessonId } = request.params;
        const launch = await scorm.launch(user, courseId, lessonId, request.body.sco);
        return { result: { success: true as const, ...launch } };
      },
    );
  };
