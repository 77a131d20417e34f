import {
  ANSWER_IMAGE_FIELD,
  IMAGE_MAX_BYTES,
  TEST_MESSAGES as T,
  createTestRequest,
  createTestResponse,
  errorResponse,
  idParam,
  questionsResponse,
  saveQuestionsList,
  saveQuestionsResponse,
  successResponse,
  testIdParams,
  testParams,
  updateTestRequest,
  updateTestResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unprocessable } from '../../platform/errors.js';
import type { Uploads } from '../files/uploads.js';
import type { TestAuthoring } from './tests.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse, 422: errorResponse };
const access = 'constructor.manage' as const;
const tags = ['constructor'];
const ok = true as const;
const MAX_IMAGES_PER_SAVE = 500;

/** Test authoring calls of docs/product.md §Test authoring (the learner's view of a test comes with the test engine). */
export const testRoutes =
  (deps: { authoring: TestAuthoring; uploads: Uploads }): FastifyPluginAsyncZod =>
  async (app) => {
    const { authoring, uploads } = deps;

    app.post(
      '/api/courses/tests',
      {
        config: { access, name: 'api.courses.tests.store' },
        schema: { tags, body: createTestRequest, response: { 201: createTestResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await authoring.create(request.body);
        return reply.code(201).send({ result: { success: ok, message: T.created, item } });
      },
    );

    app.put(
      '/api/courses/:courseId/tests/:testId',
      {
        config: { access, name: 'api.courses.tests.update' },
        schema: { tags, params: testParams, body: updateTestRequest, response: { 200: updateTestResponse, ...errors } },
      },
      async (request) => {
        const { item, message } = await authoring.update(request.params.courseId, request.params.testId, request.body);
        return { result: { success: ok, message, item } };
      },
    );

    app.delete(
      '/api/courses/tests/:id',
      {
        config: { access, name: 'api.courses.tests.destroy' },
        schema: { tags, params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await authoring.delete(request.params.id);
        return { result: { success: ok, message: T.deleted } };
      },
    );

    app.get(
      '/api/admin/tests/:testId/questions',
      {
        config: { access, name: 'api.admin.tests.questions' },
        schema: { tags, params: testIdParams, response: { 200: questionsResponse, ...errors } },
      },
      async (request) => ({ result: { success: ok, questions: await authoring.questions(request.params.testId) } }),
    );

    app.post(
      '/api/admin/tests/:testId/questions',
      {
        config: { access, name: 'api.admin.tests.questions.store' },
        schema: { tags, params: testIdParams, response: { 200: saveQuestionsResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const testId = request.params.testId;
        await authoring.questions(testId);
        if (!request.isMultipart()) throw unprocessable(T.badQuestions);
        let questionsJson: string | undefined;
        const images = new Map<string, string>();
        try {
          const parts = request.parts({
            limits: {
              fileSize: IMAGE_MAX_BYTES + 1,
              files: MAX_IMAGES_PER_SAVE,
              fields: 5,
              fieldSize: 4 * 1024 * 1024,
            },
          });
          for await (const part of parts) {
            if (part.type === 'field') {
              if (part.fieldname === 'questions' && typeof part.value === 'string') questionsJson = part.value;
              continue;
            }
            const key = ANSWER_IMAGE_FIELD.exec(part.fieldname);
            if (!key) {
              part.file.resume();
              throw unprocessable(T.badQuestions);
            }
            const saved = await uploads.save({
              stream: part.file,
              originalName: part.filename,
              folder: 'tests',
              kind: 'image',
              maxBytes: IMAGE_MAX_BYTES,
              userId: user.id,
            });
            images.set(`${key[1]}.${key[2]}`, saved.file_path);
          }
          let raw: unknown;
          try {
            raw = JSON.parse(questionsJson ?? '');
          } catch {
            throw unprocessable(T.badQuestions);
          }
          const parsed = saveQuestionsList.safeParse(raw);
          if (!parsed.success) {
            throw unprocessable(parsed.error.issues[0]?.message ?? T.badQuestions, {
              questions: parsed.error.issues.map((i) => i.message),
            });
          }
          const questions = await authoring.saveQuestions(testId, parsed.data, images);
          return { result: { success: ok, message: T.questionsSaved, questions } };
        } catch (error) {
          // Images uploaded with a save that failed are not kept.
          await uploads.discard([...images.values()]);
          throw error;
        }
      },
    );
  };
