import type { HomeCategory, StartedLesson } from '@lms/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../app/http';

export const userCoursesQueryKey = ['user-courses'] as const;
export const startedLessonsQueryKey = ['started-lessons'] as const;

interface CoursesAnswer {
  result?: { success?: boolean; categories?: HomeCategory[] };
}

interface StartedLessonsAnswer {
  result?: { success?: boolean; items?: StartedLesson[] };
}

/** GET /api/user/courses. A failure, or `result.success` false, is an error (spec 01 §8). */
export async function fetchUserCourses(): Promise<HomeCategory[]> {
  const { data } = await http.get<CoursesAnswer>('/api/user/courses');
  const result = data?.result;
  if (!result?.success || !Array.isArray(result.categories)) throw new Error('courses: no success');
  return result.categories.map((category) => ({
    ...category,
    items: Array.isArray(category.items) ? category.items : [],
  }));
}

/** GET /api/user/started-lessons, newest first. Any failure gives an empty list (spec 01 §8). */
export async function fetchStartedLessons(): Promise<StartedLesson[]> {
  try {
    const { data } = await http.get<StartedLessonsAnswer>('/api/user/started-lessons');
    const result = data?.result;
    return result?.success && Array.isArray(result.items) ? result.items : [];
  } catch {
    return [];
  }
}

export function useUserCourses() {
  return useQuery({ queryKey: userCoursesQueryKey, queryFn: fetchUserCourses });
}

export function useStartedLessons() {
  return useQuery({ queryKey: startedLessonsQueryKey, queryFn: fetchStartedLessons });
}
