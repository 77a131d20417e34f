import { scormLaunchResponse, scormStateResponse, type ScormLaunch, type ScormLearnerState } from '@lms/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { homeQueryKeys } from '../../shared/queryKeys';
import { learningKey } from './queries';

/** The learner's SCORM calls (docs/rules.md §SCORM packages): the state of the package and launches. */

const scormPath = (courseId: number, lessonId: number) => `/api/courses/${courseId}/lessons/${lessonId}/scorm`;

/** Under the feature's key, so that what refreshes the course's lists refreshes it too. */
export const scormStateQuery = (courseId: number, lessonId: number) =>
  queryOptions({
    queryKey: [...learningKey, 'scorm', courseId, lessonId],
    queryFn: async (): Promise<ScormLearnerState> => {
      const { data } = await http.get<unknown>(`${scormPath(courseId, lessonId)}/state`);
      return parseAnswer(scormStateResponse, data).result.scorm;
    },
  });

export function useScormState(courseId: number, lessonId: number) {
  return useQuery(scormStateQuery(courseId, lessonId));
}

/** POST …/scorm/launch { sco? }: the address of one SCO for this learner and run (the server picks when none is named). */
export async function launchScorm(courseId: number, lessonId: number, sco?: string): Promise<ScormLaunch> {
  const { data } = await http.post<unknown>(`${scormPath(courseId, lessonId)}/launch`, sco ? { sco } : {});
  const { url, origin, sandbox, sco: opened } = parseAnswer(scormLaunchResponse, data).result;
  return { url, origin, sandbox, sco: opened };
}

/**
 * After a launch (the lesson is marked started) and after each commit the package reports (its
 * status, score, and maybe the lesson's completion): the package's state, the course page, the
 * contents panel and the home page's lists are asked again.
 */
export function useRefreshScorm() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: learningKey }),
        ...homeQueryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
    [queryClient],
  );
}
