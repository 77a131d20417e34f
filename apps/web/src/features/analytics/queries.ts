import { analyticsOverviewResponse, employeeCourseResponse, employeeDetailResponse } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

export const analyticsKeys = {
  all: ['analytics'] as const,
  overview: ['analytics', 'users'] as const,
  employee: (id: number) => ['analytics', 'users', id] as const,
  course: (courseId: number, userId: number) => ['analytics', 'courses', courseId, 'user', userId] as const,
};

/** Figures change as people learn: a screen that mounts after 30 s asks again. */
const STALE_TIME = 30_000;

/** GET /api/analytics/users → result.analytic (the three groups). */
export const overviewQuery = queryOptions({
  queryKey: analyticsKeys.overview,
  queryFn: async () =>
    parseAnswer(analyticsOverviewResponse, (await http.get<unknown>('/api/analytics/users')).data).result.analytic,
  staleTime: STALE_TIME,
});

/** GET /api/analytics/users/{id} → result.user. */
export const employeeQuery = (id: number) =>
  queryOptions({
    queryKey: analyticsKeys.employee(id),
    queryFn: async () =>
      parseAnswer(employeeDetailResponse, (await http.get<unknown>(`/api/analytics/users/${id}`)).data).result.user,
    staleTime: STALE_TIME,
  });

/** GET /api/analytics/courses/{courseId}/user/{userId} → result.course. */
export const employeeCourseQuery = (courseId: number, userId: number) =>
  queryOptions({
    queryKey: analyticsKeys.course(courseId, userId),
    queryFn: async () =>
      parseAnswer(
        employeeCourseResponse,
        (await http.get<unknown>(`/api/analytics/courses/${courseId}/user/${userId}`)).data,
      ).result.course,
    staleTime: STALE_TIME,
  });

export function useAnalyticsOverview(enabled = true) {
  return useQuery({ ...overviewQuery, enabled });
}

/** The employee of the modal; null: none open. */
export function useEmployee(id: number | null) {
  return useQuery({ ...employeeQuery(id ?? 0), enabled: id !== null });
}

/** The course of the detail panel; null: the list panel is shown. */
export function useEmployeeCourse(courseId: number | null, userId: number | null) {
  return useQuery({
    ...employeeCourseQuery(courseId ?? 0, userId ?? 0),
    enabled: courseId !== null && userId !== null,
  });
}
