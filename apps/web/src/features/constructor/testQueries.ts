import {
  createTestResponse,
  questionsResponse,
  questionStatisticsResponse,
  saveQuestionsResponse,
  successResponse,
  testResponse,
  updateTestResponse,
  type ConstructorModule,
  type ConstructorTest,
  type QuestionStatistic,
  type SaveQuestion,
  type TestQuestion,
  type TestSettings,
} from '@lms/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { parseAnswer, successMessage } from '../../lib/answer';
import { http } from '../../lib/http';
import { moduleItems } from './logic';
import { constructorKeys, MULTIPART, refreshModules, setModules } from './queries';
import { T } from './texts';

/** The constructor's test calls: the test, its questions and statistics, creating, saving and deleting. */

// ── tests (docs/product.md §Constructor) ──

/** GET /api/courses/{courseId}/tests/{testId} → result.test (with the constructor's settings). */
export async function fetchTest(courseId: number, testId: number): Promise<ConstructorTest> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/tests/${testId}`);
  return parseAnswer(testResponse, data).result.test;
}

/** GET /api/admin/tests/{testId}/questions → result.questions. */
export async function fetchQuestions(testId: number): Promise<TestQuestion[]> {
  const { data } = await http.get<unknown>(`/api/admin/tests/${testId}/questions`);
  return parseAnswer(questionsResponse, data).result.questions;
}

export interface TestStatistics {
  /** Finished attempts the figures come from (0: nothing to show). */
  attempts: number;
  questions: QuestionStatistic[];
}

/** GET /api/admin/tests/{testId}/statistics → the figures per question over the finished attempts. */
export async function fetchTestStatistics(testId: number): Promise<TestStatistics> {
  const { data } = await http.get<unknown>(`/api/admin/tests/${testId}/statistics`);
  const { attempts, questions } = parseAnswer(questionStatisticsResponse, data).result;
  return { attempts, questions };
}

export function useTest(courseId: number, testId: number) {
  return useQuery({ queryKey: constructorKeys.test(courseId, testId), queryFn: () => fetchTest(courseId, testId) });
}

/** The authors' figures per question (issue 16); refreshed after 'Сохранить тест'. */
export function useTestStatistics(testId: number) {
  return useQuery({ queryKey: constructorKeys.statistics(testId), queryFn: () => fetchTestStatistics(testId) });
}

export function useQuestions(testId: number) {
  // The editor keeps its own draft: a refetch in the background must not replace it.
  return useQuery({
    queryKey: constructorKeys.questions(testId),
    queryFn: () => fetchQuestions(testId),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

/** A test renamed, (un)published or set up: the module list and the test page show it. */
function testChanged(qc: QueryClient, courseId: number, item: ConstructorTest) {
  qc.setQueryData(constructorKeys.test(courseId, item.id), item);
  setModules(qc, courseId, (ms) =>
    ms.map((m) => ({
      ...m,
      tests: m.tests.map((t) => (t.id === item.id ? { ...t, name: item.name, is_published: item.is_published } : t)),
    })),
  );
  void refreshModules(qc, courseId);
}

/**
 * POST /api/courses/tests with every setting, course_id, module_id and sort_order → result.item;
 * the test goes last in its module.
 */
export function useCreateTest(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ moduleId, name, settings }: { moduleId: number; name: string; settings: TestSettings }) => {
      const module = qc
        .getQueryData<ConstructorModule[]>(constructorKeys.modules(courseId))
        ?.find((m) => m.id === moduleId);
      const sortOrder = module ? moduleItems(module).reduce((max, i) => Math.max(max, i.sort_order + 1), 0) : 0;
      const { data } = await http.post<unknown>('/api/courses/tests', {
        ...settings,
        name,
        course_id: courseId,
        module_id: moduleId,
        sort_order: sortOrder,
      });
      const { item, message } = parseAnswer(createTestResponse, data).result;
      return { item, message: message || T.testCreated };
    },
    onSuccess: ({ item }) => {
      qc.setQueryData(constructorKeys.test(courseId, item.id), item);
      void refreshModules(qc, courseId);
    },
  });
}

/** PUT /api/courses/{courseId}/tests/{testId} with the settings, or the name. */
export function useUpdateTest(courseId: number, testId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: TestSettings | { name: string } | { name: string; is_published: boolean }) => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}/tests/${testId}`, change);
      const { item, message } = parseAnswer(updateTestResponse, data).result;
      return { item, message };
    },
    onSuccess: ({ item }) => testChanged(qc, courseId, item),
  });
}

/**
 * POST /api/admin/tests/{testId}/questions, multipart: `questions` (a JSON list) and each new
 * answer image under `answer_image.{question key}.{answer key}` → the saved questions.
 */
export function useSaveQuestions(testId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ questions, files }: { questions: SaveQuestion[]; files: { field: string; file: File }[] }) => {
      const form = new FormData();
      form.append('questions', JSON.stringify(questions));
      for (const { field, file } of files) form.append(field, file, file.name);
      const { data } = await http.post<unknown>(`/api/admin/tests/${testId}/questions`, form, MULTIPART);
      const result = parseAnswer(saveQuestionsResponse, data).result;
      return { questions: result.questions, message: result.message || T.questionsSaved };
    },
    onSuccess: ({ questions }) => {
      qc.setQueryData(constructorKeys.questions(testId), questions);
      void qc.invalidateQueries({ queryKey: constructorKeys.statistics(testId) });
    },
  });
}

/** DELETE /api/courses/tests/{id}. */
export function useDeleteTest(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (testId: number) => {
      const { data } = await http.delete<unknown>(`/api/courses/tests/${testId}`);
      parseAnswer(successResponse, data);
      return successMessage(data, T.testDeleted);
    },
    onSuccess: (_message, testId) => {
      setModules(qc, courseId, (ms) => ms.map((m) => ({ ...m, tests: m.tests.filter((t) => t.id !== testId) })));
      qc.removeQueries({ queryKey: constructorKeys.test(courseId, testId) });
      qc.removeQueries({ queryKey: constructorKeys.questions(testId) });
      qc.removeQueries({ queryKey: constructorKeys.statistics(testId) });
      void refreshModules(qc, courseId);
    },
  });
}
