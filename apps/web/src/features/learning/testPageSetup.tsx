import type { LearnerTest } from '@lms/contract';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes } from '../../test/render';
import { setupUser } from '../../test/user';
import { attemptView, courseModules, question, testAnswer } from './fixtures';
import TestPage from './TestPage';

/** The test page against a mocked server (component tests of TestPage*.test.tsx). */

let restore: () => void = () => {};
/** Puts the HTTP client back; for `afterEach`. */
export const restoreHttp = () => restore();

export const KEY = 'lms.test-attempt.23';
export const open = attemptView({
  id: 70,
  finished_at: null,
  duration_seconds: null,
  score: null,
  correct_answers: null,
  is_passed: null,
  elapsed_seconds: 30,
});
export const questions = [
  question({ id: 1 }),
  question({ id: 2, multiple: true, correctAnswers: 2 }),
  question({ id: 3 }),
];

export type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

/**
 * The test before an attempt, and while attempt 70 is open after the start; `serverTime` is the
 * server's clock in the test's answers.
 */
export function setup(
  over: Partial<LearnerTest> = {},
  routes: Record<string, Handler> = {},
  during: Partial<LearnerTest> = {},
  openOnServer = false,
  serverTime?: () => string,
) {
  let started = openOnServer;
  const mock = mockHttp({
    'GET /api/courses/5/tests/23': () => ({
      status: 200,
      data: started
        ? testAnswer({ ...over, questions, active_attempts: [open], ...during }, serverTime?.())
        : testAnswer(over, serverTime?.()),
    }),
    'GET /api/courses/5/modules-structured': {
      status: 200,
      data: { result: { success: true, modules: courseModules } },
    },
    'POST /api/test-attempts/start': () => {
      started = true;
      return { status: 200, data: { result: { success: true, message: 'Тест начат!', attempt: { id: 70 } } } };
    },
    'POST /api/test-attempts/save-answers': {
      status: 200,
      data: { result: { success: true, message: 'Ответ сохранен' } },
    },
    'POST /api/test-attempts/finish': () => {
      started = false;
      return {
        status: 200,
        data: {
          result: {
            success: true,
            message: 'Тест завершен!',
            attempt: attemptView({ id: 70 }),
            score: 60,
            correct_answers: 3,
            is_passed: false,
            finished_at: '2026-03-04T10:07:30.000Z',
          },
        },
      };
    },
    ...routes,
  });
  restore = mock.restore;
  const rendered = renderRoutes(
    [
      { path: '/courses/:courseId/test/:testId', Component: TestPage },
      { path: '/courses/:courseId/test/:testId/:attemptId', element: <div>Страница результата</div> },
      { path: '/courses/:courseId', element: <div>Страница курса</div> },
    ],
    '/courses/5/test/23',
  );
  return {
    ...rendered,
    requests: mock.requests,
    ue: setupUser(),
  };
}

export const posts = (requests: RecordedRequest[], url: string) =>
  requests.filter((r) => r.method === 'POST' && r.url === url);
