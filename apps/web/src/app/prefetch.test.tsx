import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { homeCategories, learnerUser, startedLessons } from '../features/home/fixtures';
import { useUserCourses } from '../features/home/queries';
import { startedLessonsQueryKey, userCoursesQueryKey } from '../shared/queryKeys';
import { browser } from '../lib/browser';
import { guestUser, sessionQuery } from '../shared/session';
import { mockHttp, testZiggy, type MockReply } from '../test/http';
import { createQueryClient } from './queryClient';
import { prefetchFirstScreen } from './router';

const coursesReply: MockReply = { status: 200, data: { result: { success: true, categories: homeCategories } } };
const lessonsReply: MockReply = { status: 200, data: { result: { success: true, items: startedLessons(2) } } };

let restore: () => void = () => {};
let navigate: MockInstance<typeof browser.navigate>;
beforeEach(() => {
  navigate = vi.spyOn(browser, 'navigate').mockImplementation(() => {});
  vi.spyOn(browser, 'pathname').mockReturnValue('/');
});
afterEach(() => {
  restore();
  vi.restoreAllMocks();
});

/** The session check answers only when `answer` is called. */
function setup(session: MockReply, lists: { courses: MockReply; lessons: MockReply }) {
  let answer: () => void = () => {};
  const sessionAnswered = new Promise<void>((resolve) => (answer = resolve));
  const mock = mockHttp({
    'GET /ziggy': { status: 200, data: testZiggy },
    'GET /api/check-auth': async () => {
      await sessionAnswered;
      return session;
    },
    'GET /api/user/courses': lists.courses,
    'GET /api/user/started-lessons': lists.lessons,
  });
  restore = mock.restore;
  const count = (url: string) => mock.requests.filter((r) => r.url === url).length;
  return { answer, count, queryClient: createQueryClient() };
}

describe('prefetchFirstScreen', () => {
  it("at '/' asks for the home lists with the session check, not after it", async () => {
    const { answer, count, queryClient } = setup(
      { status: 200, data: learnerUser },
      { courses: coursesReply, lessons: lessonsReply },
    );
    prefetchFirstScreen(queryClient, '/');
    await waitFor(() => expect(count('/api/user/courses')).toBe(1));
    expect(count('/api/user/started-lessons')).toBe(1);
    expect(count('/api/check-auth')).toBe(1);
    answer();
    await waitFor(() => expect(queryClient.getQueryData(userCoursesQueryKey)).toEqual(homeCategories));
    expect(queryClient.getQueryData(startedLessonsQueryKey)).toHaveLength(2);

    // The home page opened at start-up shows them without asking again.
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useUserCourses(), { wrapper });
    expect(result.current.data).toEqual(homeCategories);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count('/api/user/courses')).toBe(1);
  });

  it('forgets the lists of a guest, whose 401 does not send the browser to /login', async () => {
    const { answer, count, queryClient } = setup(
      { status: 200, data: guestUser },
      { courses: { status: 401 }, lessons: { status: 401 } },
    );
    prefetchFirstScreen(queryClient, '/');
    await waitFor(() => expect(count('/api/user/courses')).toBe(1));
    await waitFor(() => expect(queryClient.getQueryState(userCoursesQueryKey)?.status).toBe('error'));
    answer();
    await waitFor(() => expect(queryClient.getQueryState(userCoursesQueryKey)).toBeUndefined());
    expect(queryClient.getQueryState(startedLessonsQueryKey)).toBeUndefined();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('asks for no home list elsewhere', async () => {
    const { answer, count, queryClient } = setup(
      { status: 200, data: learnerUser },
      { courses: coursesReply, lessons: lessonsReply },
    );
    prefetchFirstScreen(queryClient, '/profile');
    answer();
    await waitFor(() => expect(queryClient.getQueryData(sessionQuery.queryKey)?.authenticated).toBe(true));
    expect(count('/api/user/courses')).toBe(0);
    expect(count('/api/user/started-lessons')).toBe(0);
  });
});
