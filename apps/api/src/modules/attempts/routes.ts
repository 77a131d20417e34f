import {
  attemptResultParams,
  attemptResultResponse,
  blockedAttemptResponse,
  errorResponse,
  finishAttemptRequest,
  finishAttemptResponse,
  learnerTestParams,
  learnerTestResponse,
  questionStatisticsResponse,
  saveAnswersRequest,
  saveAnswersResponse,
  startAttemptRequest,
  startAttemptResponse,
  testIdParams,
  ATTEMPT_MESSAGES as A,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can } from '../../platform/access.js';
import type { TestAuthoring } from '../constructor/tests.js';
import { StartRefused, type AttemptsService } from './service.js';

const errors = { 401: errorResponse, 404: errorResponse, 422: errorResponse };
const tags = ['tests'];
const ok = true as const;

/** Test taking (docs/product.md §Test taking): the test, start, answers, finish and the review of a finished attempt. */
export const attemptRoutes =
  (deps: { attempts: AttemptsService; authoring: TestAuthoring }): FastifyPluginAsyncZod =>
  async (app) => {
    const { attempts, authoring } = deps;

    app.get(
      '/api/courses/:courseId/tests/:testId',
      {
        config: { access: 'authenticated', name: 'api.courses.tests.show' },
        schema: { tags, params: learnerTestParams, response: { 200: learnerTestResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const { courseId, testId } = request.params;
        const view = await attempts.testView(user, courseId, testId);
        // Authors and admins also get the settings the constructor edits (one route, two audiences).
        const settings = can(user.role, 'constructor.manage') ? await authoring.test(courseId, testId) : {};
        return { result: { success: ok, ...view, test: { ...settings, ...view.test } } };
      },
    );

    app.post(
      '/api/test-attempts/start',
      {
        config: { access: 'authenticated', name: 'api.test-attempts.start' },
        schema: {
          tags,
          body: startAttemptRequest,
          response: { 200: startAttemptResponse, 422: blockedAttemptResponse, 401: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const user = await request.requireUser();
        try {
          const { id, message } = await attempts.start(user, request.body.course_test_id);
          return { result: { success: ok, message, attempt: { id } } };
        } catch (error) {
          if (!(error instanceof StartRefused)) throw error;
          return reply.code(422).send({
            result: {
              success: false as const,
              message: error.message,
              ...(error.blockedUntil !== undefined ? { blocked_until: error.blockedUntil } : {}),
            },
          });
        }
      },
    );

    app.post(
      '/api/test-attempts/save-answers',
      {
        config: { access: 'authenticated', name: 'api.test-attempts.save-answers' },
        schema: { tags, body: saveAnswersRequest, response: { 200: saveAnswersResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        await attempts.saveAnswers(user, request.body.attempt_id, request.body.answers);
        return { result: { success: ok, message: A.saved } };
      },
    );

    app.post(
      '/api/test-attempts/finish',
      {
        config: { access: 'authenticated', name: 'api.test-attempts.finish' },
        schema: { tags, body: finishAttemptRequest, response: { 200: finishAttemptResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const attempt = await attempts.finish(user, request.body.attempt_id);
        return {
          result: {
            success: ok,
            message: A.finished,
            attempt,
            score: attempt.score ?? 0,
            correct_answers: attempt.correct_answers ?? 0,
            is_passed: attempt.is_passed ?? false,
            finished_at: attempt.finished_at ?? '',
          },
        };
      },
    );

    app.get(
      '/api/courses/:courseId/tests/:testId/:attemptId/result',
      {
        config: { access: 'authenticated', name: 'api.courses.tests.result' },
        schema: { tags, params: attemptResultParams, response: { 200: attemptResultResponse, ...errors } },
      },
      async (request) => {
        const user = await request.requireUser();
        const { courseId, testId, attemptId } = request.params;
        return { result: { success: ok, test: await attempts.result(user, courseId, testId, attemptId) } };
      },
    );

    app.get(
      '/api/admin/tests/:testId/statistics',
      {
        config: { access: 'constructor.manage', name: 'api.admin.tests.statistics' },
        schema: {
          tags,
          summary: 'Per-question figures over the finished attempts (authors)',
          params: testIdParams,
          response: { 200: questionStatisticsResponse, ...errors },
        },
      },
      async (request) => ({ result: { success: ok, ...(await attempts.statistics(request.params.testId)) } }),
    );
  };
