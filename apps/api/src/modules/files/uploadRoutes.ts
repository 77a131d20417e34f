import type { MultipartFile } from '@fastify/multipart';
import {
  CONSTRUCTOR_MESSAGES as M,
  FILE_MAX_BYTES,
  IMAGE_MAX_BYTES,
  courseImageResponse,
  courseParams,
  dbIdParam,
  errorResponse,
  uploadResponse,
} from '@lms/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unprocessable } from '../../platform/errors.js';
import { storageUrl } from '../../platform/storageUrl.js';
import type { Uploads } from './uploads.js';

/**
 * What the uploads need of the course content a file goes to. The files module owns this interface
 * and the constructor implements it (app.ts hands its service in), so files never import the
 * constructor.
 */
export interface UploadTargets {
  /** Fails with the API's 404 unless the lesson is live (asked before the upload is kept). */
  checkLesson(lessonId: number): Promise<void>;
  /** The live course; fails with the API's 404 when there is none (asked before the upload is read). */
  course(courseId: number): Promise<unknown>;
  /** Makes the stored file the course's image; returns the image as the answer shows it. */
  setCourseImage(courseId: number, path: string): Promise<string>;
}

/** The fields sent before the file part (the client appends them first). */
function fieldValue(part: MultipartFile, name: string): string | undefined {
  const field = part.fields[name];
  const one = Array.isArray(field) ? field[0] : field;
  return one && one.type === 'field' && typeof one.value === 'string' ? one.value : undefined;
}

export async function filePart(request: FastifyRequest, field: string, maxBytes: number): Promise<MultipartFile> {
  if (!request.isMultipart()) throw unprocessable(M.noFile, { [field]: [M.noFile] });
  // One byte over the limit marks an upload too large (the stream reports `truncated`).
  const part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024 } });
  if (!part || part.fieldname !== field) {
    part?.file.resume();
    throw unprocessable(M.noFile, { [field]: [M.noFile] });
  }
  return part;
}

function lessonIdOf(part: MultipartFile): number {
  const parsed = dbIdParam.safeParse(fieldValue(part, 'lesson_id'));
  if (!parsed.success) {
    part.file.resume();
    throw unprocessable(M.lessonNotFound, { lesson_id: [M.lessonNotFound] });
  }
  return parsed.data;
}

// The constructor's calls: its access, tag and errors (413: the file is over its limit).
const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse, 422: errorResponse };
const access = 'constructor.manage' as const;
const tags = ['constructor'];

/** Uploads of the constructor (docs/product.md §Constructor): lesson images and files, and the course image. */
export const uploadRoutes =
  (deps: { uploads: Uploads; targets: UploadTargets }): FastifyPluginAsyncZod =>
  async (app) => {
    const { uploads, targets } = deps;

    /** A lesson image or file: streamed to disk, kept only while its lesson is live. */
    for (const [url, field, kind, maxBytes] of [
      ['/api/upload-image', 'image', 'image', IMAGE_MAX_BYTES],
      ['/api/upload-file', 'file', 'file', FILE_MAX_BYTES],
    ] as const) {
      app.post(
        url,
        {
          config: { access, name: `api.${url.slice(5)}` },
          schema: { tags, response: { 200: uploadResponse, ...errors } },
        },
        async (request) => {
          const user = await request.requireUser();
          const part = await filePart(request, field, maxBytes);
          const lessonId = lessonIdOf(part);
          const saved = await uploads.save({
            stream: part.file,
            originalName: part.filename,
            folder: 'lessons',
            kind,
            maxBytes,
            userId: user.id,
            beforeKeep: () => targets.checkLesson(lessonId),
          });
          const { file_path, original_filename } = saved;
          return { result: { success: true as const, file_path, original_filename, url: storageUrl(file_path) ?? '' } };
        },
      );
    }

    app.post(
      '/api/courses/:courseId/image',
      {
        config: { access, name: 'api.courses.image' },
        schema: { tags, params: courseParams, response: { 200: courseImageResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const courseId = request.params.courseId;
        await targets.course(courseId);
        const part = await filePart(request, 'image', IMAGE_MAX_BYTES);
        const saved = await uploads.save({
          stream: part.file,
          originalName: part.filename,
          folder: 'courses',
          kind: 'image',
          maxBytes: IMAGE_MAX_BYTES,
          userId: user.id,
        });
        const image = await targets.setCourseImage(courseId, saved.file_path);
        return { result: { success: true as const, message: M.imageUploaded, image } };
      },
    );
  };
