import type { HomeCategory, HomeCourse, StartedLesson } from '@lms/contract';
import { queryOptions, useQuery, type Query, type QueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { array, boolean, int, literal, nullable, object, oneOf, string, type Shape } from '../../lib/shape';
import { startedLessonsQueryKey, userCoursesQueryKey } from '../../shared/queryKeys';

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

/** GET /api/user/courses. A failure, or `result.success` false, is an error (docs/product.md §Home). */
async function userCourses(loginRedirect: boolean): Promise<HomeCategory[]> {
  const { data } = await http.get<unknown>('/api/user/courses', { loginRedirect });
  return parseAnswer(userCoursesAnswer, data).result.categories;
}

/** GET /api/user/started-lessons, newest first. Any failure gives an empty list (docs/product.md §Home). */
async function startedLessons(loginRedirect: boolean): Promise<StartedLesson[]> {
  try {
    const { data } = await http.get<unknown>('/api/user/started-lessons', { loginRedirect });
    return parseAnswer(startedLessonsAnswer, data).result.items;
  } catch {
    return [];
  }
}

export const fetchUserCourses = () => userCourses(true);
export const fetchStartedLessons = () => startedLessons(true);

/** How long the lists fetched at start-up count as fresh for the home page that first shows them. */
const STARTUP_FRESH_MS = 10_000;
let fetchedAtStartup = false;

/**
 * The lists are asked for again whenever the home page mounts (staleTime 0), except within 10 s of
 * the fetch of `prefetchHomeLists` while they still hold its answer: the page opened at start-up
 * shows what was fetched while its code loaded instead of asking the same two calls again. An
 * invalidation (a lesson or test finished) always makes them stale.
 */
function staleTime(query: Pick<Query, 'state'>): number {
  return fetchedAtStartup && query.state.dataUpdateCount === 1 ? STARTUP_FRESH_MS : 0;
}

export const userCoursesQuery = queryOptions({ queryKey: userCoursesQueryKey, queryFn: fetchUserCourses, staleTime });
export const startedLessonsQuery = queryOptions({
  queryKey: startedLessonsQueryKey,
  queryFn: fetchStartedLessons,
  staleTime,
});

/**
 * Starts both lists of the home page at start-up (router.tsx), with the session check rather than
 * after it: one round trip less before the page can show them. The session is not known yet, so a
 * 401 (a guest) does not send the browser to /login here; `forgetHomeLists` drops the answers when
 * the session turns out to be a guest's (the guard then opens /login).
 */
export function prefetchHomeLists(queryClient: QueryClient): void {
  fetchedAtStartup = true;
  void queryClient.prefetchQuery({ ...userCoursesQuery, queryFn: () => userCourses(false) });
  void queryClient.prefetchQuery({ ...startedLessonsQuery, queryFn: () => startedLessons(false) });
}

export function forgetHomeLists(queryClient: QueryClient): void {
  fetchedAtStartup = false;
  queryClient.removeQueries({ queryKey: userCoursesQueryKey, exact: true });
  queryClient.removeQueries({ queryKey: startedLessonsQueryKey, exact: true });
}

export function useUserCourses() {
  return useQuery(userCoursesQuery);
}

export function useStartedLessons() {
  return useQuery(startedLessonsQuery);
}
