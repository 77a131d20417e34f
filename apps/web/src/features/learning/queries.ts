import {
  attemptResultResponse,
  blockedAttemptResponse,
  courseSummaryResponse,
  finishAttemptResponse,
  learnerTestResponse,
  saveAnswersResponse,
  startAttemptResponse,
  lessonContentsResponse,
  lessonProgressResponse,
  modulesStructuredResponse,
  type CourseSummary,
  type LearnerModule,
  type LessonContents,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http, isHttpError } from '../../lib/http';
import { homeQueryKeys } from '../../shared/queryKeys';

/** Every query of this feature starts with this key, so that a completion refreshes them all. */
export const learningKey = ['learning'] as const;

export async function fetchModules(courseId: number): Promise<LearnerModule[]> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/modules-structured`);
  return parseAnswer(modulesStructuredResponse, data).result.modules;
}

export async function fetchCourseSummary(courseId: number): Promise<CourseSummary> {
  const { data } = await http.get<unknown>(`/api/admin/courses/${courseId}`);
  return parseAnswer(courseSummaryResponse, data).result.course;
}

export async function fetchLessonContents(courseId: number, lessonId: number): Promise<LessonContents> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/lessons/${lessonId}/contents`);
  return parseAnswer(lessonContentsResponse, data).result;
}

export const modulesQuery = (courseId: number) =>
  queryOptions({ queryKey: [...learningKey, 'modules', courseId], queryFn: () => fetchModules(courseId) });

export const courseSummaryQuery = (courseId: number) =>
  queryOptions({ queryKey: [...learningKey, 'course', courseId], queryFn: () => fetchCourseSummary(courseId) });

export const lessonContentsQuery = (courseId: number, lessonId: number) =>
  queryOptions({
    queryKey: [...learningKey, 'lesson', courseId, lessonId],
    queryFn: () => fetchLessonContents(courseId, lessonId),
  });

export function useModules(courseId: number | null) {
  return useQuery({ ...modulesQuery(courseId ?? 0), enabled: courseId !== null });
}

export function useCourseSummary(courseId: number | null) {
  return useQuery({ ...courseSummaryQuery(courseId ?? 0), enabled: courseId !== null });
}

export function useLessonContents(courseId: number, lessonId: number) {
  return useQuery(lessonContentsQuery(courseId, lessonId));
}

/**
 * POST /api/lessons/{id}/start or /complete. Either changes the lesson, the course page (progress,
 * module status, tooltips) and the home page's cards and started lessons, so all of them refresh.
 */
export function useLessonProgress(lessonId: number, what: 'start' | 'complete') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await http.post<unknown>(`/api/lessons/${lessonId}/${what}`);
      return parseAnswer(lessonProgressResponse, data).result;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: learningKey }),
        ...homeQueryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}

/* ---------- tests (docs/product.md §Test taking) ---------- */

export type LearnerTestAnswer = ReturnType<typeof learnerTestResponse.parse>['result'];
export type AttemptResult = ReturnType<typeof attemptResultResponse.parse>['result']['test'];
export type FinishedAttempt = ReturnType<typeof finishAttemptResponse.parse>['result'];

export async function fetchTest(courseId: number, testId: number): Promise<LearnerTestAnswer> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/tests/${testId}`);
  return parseAnswer(learnerTestResponse, data).result;
}

export async function fetchAttemptResult(courseId: number, testId: number, attemptId: number): Promise<AttemptResult> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/tests/${testId}/${attemptId}/result`);
  return parseAnswer(attemptResultResponse, data).result.test;
}

export const testQuery = (courseId: number, testId: number) =>
  queryOptions({ queryKey: [...learningKey, 'test', courseId, testId], queryFn: () => fetchTest(courseId, testId) });

export const attemptResultQuery = (courseId: number, testId: number, attemptId: number) =>
  queryOptions({
    queryKey: [...learningKey, 'attempt-result', courseId, testId, attemptId],
    queryFn: () => fetchAttemptResult(courseId, testId, attemptId),
  });

export function useTest(courseId: number, testId: number) {
  return useQuery(testQuery(courseId, testId));
}

export function useAttemptResult(courseId: number, testId: number, attemptId: number) {
  return useQuery(attemptResultQuery(courseId, testId, attemptId));
}

/**
 * `blocked_until` of a refused start (422): a time, null when blocked for ever, undefined when the
 * refusal was not a block (docs/product.md §Test taking).
 */
export function blockedUntilOf(error: unknown): string | null | undefined {
  if (!isHttpError(error)) return undefined;
  const parsed = blockedAttemptResponse.safeParse(error.response?.data);
  return parsed.success ? parsed.data.result.blocked_until : undefined;
}

/** Refreshes the course's lists and the home page after an attempt starts or ends. */
function useRefreshLearning() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: learningKey }),
      ...homeQueryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    ]);
}

/** POST /api/test-attempts/start: a new attempt, or the open one continued. */
export function useStartAttempt(testId: number) {
  const refresh = useRefreshLearning();
  return useMutation({
    mutationFn: async () => {
      const { data } = await http.post<unknown>('/api/test-attempts/start', { course_test_id: testId });
      return parseAnswer(startAttemptResponse, data).result;
    },
    onSuccess: refresh,
  });
}

export interface SaveAnswerInput {
  attemptId: number;
  questionId: number;
  optionIds: number[];
}

/** POST /api/test-attempts/save-answers with one question's answer. */
export function useSaveAnswer() {
  return useMutation({
    mutationFn: async ({ attemptId, questionId, optionIds }: SaveAnswerInput) => {
      const { data } = await http.post<unknown>('/api/test-attempts/save-answers', {
        attempt_id: attemptId,
        answers: [{ test_question_id: questionId, answer: optionIds }],
      });
      return parseAnswer(saveAnswersResponse, data).result;
    },
  });
}

/** POST /api/test-attempts/finish: grades the attempt; the course and home lists change. */
export function useFinishAttempt() {
  const refresh = useRefreshLearning();
  return useMutation({
    mutationFn: async (attemptId: number): Promise<FinishedAttempt> => {
      const { data } = await http.post<unknown>('/api/test-attempts/finish', { attempt_id: attemptId });
      return parseAnswer(finishAttemptResponse, data).result;
    },
    // not awaited: the result page opens at once, the lists refresh meanwhile
    onSuccess: () => void refresh(),
  });
}
