import type { HomeCategory, HomeCourse, StartedLesson } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { array, boolean, int, literal, nullable, object, oneOf, string, type Shape } from '../../lib/shape';

// The contract's `userCoursesHomeResponse` and `startedLessonsResponse`, without zod (lib/shape.ts):
// these lists are fetched at start-up, with the first files.
const counter = object({ total: int, completed: int });
const homeCourse: Shape<HomeCourse> = object({
  id: int,
  name: string,
  image: nullable(string),
  url: string,
  groups: int,
  students: int,
  deadline: nullable(string),
  deadline_status: nullable(oneOf(['overdue', 'almost_overdue', 'in_order'])),
  lessons: counter,
  test: counter,
  progress: int,
  complete: boolean,
});
const homeCategory: Shape<HomeCategory> = object({ id: int, name: string, items: array(homeCourse) });
export const userCoursesAnswer = object({
  result: object({ success: literal(true), categories: array(homeCategory) }),
});
const startedLesson: Shape<StartedLesson> = object({
  id: int,
  course_id: int,
  name: string,
  module: string,
  section: string,
  image: nullable(string),
});
export const startedLessonsAnswer = object({
  result: object({ success: literal(true), items: array(startedLesson) }),
});

export const userCoursesQueryKey = ['user-courses'] as const;
export const startedLessonsQueryKey = ['started-lessons'] as const;

/** GET /api/user/courses. A failure, or `result.success` false, is an error (spec 01 §8). */
export async function fetchUserCourses(): Promise<HomeCategory[]> {
  const { data } = await http.get<unknown>('/api/user/courses');
  return parseAnswer(userCoursesAnswer, data).result.categories;
}

/** GET /api/user/started-lessons, newest first. Any failure gives an empty list (spec 01 §8). */
export async function fetchStartedLessons(): Promise<StartedLesson[]> {
  try {
    const { data } = await http.get<unknown>('/api/user/started-lessons');
    return parseAnswer(startedLessonsAnswer, data).result.items;
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
