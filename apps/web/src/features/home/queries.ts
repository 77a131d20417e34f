import { startedLessonsResponse, userCoursesHomeResponse, type HomeCategory, type StartedLesson } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';

export const userCoursesQueryKey = ['user-courses'] as const;
export const startedLessonsQueryKey = ['started-lessons'] as const;

/** GET /api/user/courses. A failure, or `result.success` false, is an error (spec 01 §8). */
export async function fetchUserCourses(): Promise<HomeCategory[]> {
  const { data } = await http.get<unknown>('/api/user/courses');
  return parseAnswer(userCoursesHomeResponse, data).result.categories;
}

/** GET /api/user/started-lessons, newest first. Any failure gives an empty list (spec 01 §8). */
export async function fetchStartedLessons(): Promise<StartedLesson[]> {
  try {
    const { data } = await http.get<unknown>('/api/user/started-lessons');
    return parseAnswer(startedLessonsResponse, data).result.items;
  } catch {
    return [];
  }
}

export const userCoursesQuery = queryOptions({ queryKey: userCoursesQueryKey, queryFn: fetchUserCourses });
export const startedLessonsQuery = queryOptions({ queryKey: startedLessonsQueryKey, queryFn: fetchStartedLessons });

export function useUserCourses() {
  return useQuery(userCoursesQuery);
}

export function useStartedLessons() {
  return useQuery(startedLessonsQuery);
}
