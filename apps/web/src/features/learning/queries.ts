import {
  courseSummaryResponse,
  lessonContentsResponse,
  lessonProgressResponse,
  modulesStructuredResponse,
  type CourseSummary,
  type LearnerModule,
  type LessonContents,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

/** Every query of this feature starts with this key, so that a completion refreshes them all. */
export const learningKey = ['learning'] as const;
/** The home page's lists (features/home/queries.ts), which show the course's progress. */
const HOME_KEYS = [['user-courses'], ['started-lessons']] as const;

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
        ...HOME_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}
