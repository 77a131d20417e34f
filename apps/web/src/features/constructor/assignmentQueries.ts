import {
  assignmentCandidatesResponse,
  assignmentChangeResponse,
  courseAssignmentResponse,
  type AssignmentCandidate,
  type CourseAssignment,
} from '@lms/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { catalogueQueryKey, homeQueryKeys, settingsQueryKey } from '../../shared/queryKeys';

/** Under the constructor's keys: only this section reads them. */
export const assignmentKeys = {
  all: (courseId: number) => ['constructor', 'assignment', courseId] as const,
  candidates: (courseId: number, search: string) =>
    ['constructor', 'assignment', courseId, 'candidates', search] as const,
};

const path = (courseId: number) => `/api/courses/${courseId}/assignment`;

/** GET /api/courses/{courseId}/assignment → result.assignment */
export const assignmentQuery = (courseId: number) =>
  queryOptions({
    queryKey: assignmentKeys.all(courseId),
    queryFn: async (): Promise<CourseAssignment> =>
      parseAnswer(courseAssignmentResponse, (await http.get<unknown>(path(courseId))).data).result.assignment,
  });

export function useAssignment(courseId: number) {
  return useQuery(assignmentQuery(courseId));
}

/** GET /api/courses/{courseId}/assignment/candidates?search= → at most 20 live employees. */
export function useCandidates(courseId: number, search: string, enabled: boolean) {
  return useQuery({
    queryKey: assignmentKeys.candidates(courseId, search),
    queryFn: async (): Promise<AssignmentCandidate[]> => {
      const query = search ? `?${new URLSearchParams({ search }).toString()}` : '';
      const { data } = await http.get<unknown>(`${path(courseId)}/candidates${query}`);
      return parseAnswer(assignmentCandidatesResponse, data).result.items;
    },
    enabled,
    // The list under the field stays while the next search's answer comes.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** One change of the section: an add of several holders of a kind, or the removal of one. */
export type AssignmentChangeRequest =
  | { kind: 'departments'; ids: number[] }
  | { kind: 'groups'; ids: number[] }
  | { kind: 'users'; ids: number[] }
  | { kind: 'departments' | 'groups' | 'users'; remove: number };

const BODY_FIELD = { departments: 'department_ids', groups: 'group_ids', users: 'user_ids' } as const;

/**
 * POST …/assignment/{kind} or DELETE …/assignment/{kind}/{id}: the answer is the assignment as it is
 * now, put in place at once. The same rows are what the school settings' tabs, the catalogue's
 * learner counts and the home page show, so those are asked again.
 */
export function useChangeAssignment(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: AssignmentChangeRequest) => {
      const base = `${path(courseId)}/${change.kind}`;
      const { data } =
        'remove' in change
          ? await http.delete<unknown>(`${base}/${change.remove}`)
          : await http.post<unknown>(base, { [BODY_FIELD[change.kind]]: change.ids });
      return parseAnswer(assignmentChangeResponse, data).result;
    },
    onSuccess: ({ assignment }) => {
      qc.setQueryData(assignmentKeys.all(courseId), assignment);
      // The candidates' 'уже назначен' marks follow too (the view above is not under their key's end).
      void qc.invalidateQueries({ queryKey: [...assignmentKeys.all(courseId), 'candidates'] });
      for (const key of [settingsQueryKey, catalogueQueryKey, ...homeQueryKeys])
        void qc.invalidateQueries({ queryKey: key });
    },
  });
}
