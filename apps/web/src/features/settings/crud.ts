/*
 * The one client-side building block of the settings lists that are edited as a whole item with
 * its courses (departments, study groups): the list, an item's courses, saving and deleting.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { parseAnswer, type Schema } from '../../lib/answer';
import { http, type HttpResponse } from '../../lib/http';

/** What every such item has: an id, a name and the courses it gives. */
export interface CrudItem {
  id: number;
  name: string;
  course_ids: number[];
}

interface CrudConfig<Item> {
  /** The list's cache key; an item's courses live under it (key, id, 'courses'). */
  key: readonly string[];
  /** The collection: GET and POST here, GET/PUT/DELETE `{path}/{id}`, GET `{path}/{id}/courses`. */
  path: string;
  listSchema: Schema<{ result: { items: Item[] } }>;
  courseSchema: Schema<{ result: { items: { id: number; name: string }[] } }>;
  /** The statuses each change must be answered with; any 2xx when not given. */
  statuses?: { create: number; update: number; remove: number };
  /** Other lists that show these items and are refreshed with them. */
  shownIn?: QueryKey[];
}

/** The lists of the settings stay fresh for 30 s. */
const STALE_TIME = 30_000;

function expectStatus(response: HttpResponse, status: number | undefined): unknown {
  if (status !== undefined && response.status !== status) throw new Error(`код ответа ${response.status}`);
  return response.data;
}

export type CrudResource<Item extends CrudItem, Body> = ReturnType<typeof crudResource<Item, Body>>;

/** Query options and mutation hooks of one collection; every change refreshes the lists it shows in. */
export function crudResource<Item extends CrudItem, Body>(config: CrudConfig<Item>) {
  const { key, path, statuses } = config;
  const itemPath = (id: number) => `${path}/${id}`;

  const listQuery = queryOptions({
    queryKey: key,
    queryFn: async (): Promise<Item[]> => parseAnswer(config.listSchema, (await http.get(path)).data).result.items,
    staleTime: STALE_TIME,
  });

  /** GET {path}/{id}/courses; an edit form starts from a fresh answer, never a cached one. */
  const coursesQuery = (id: number) =>
    queryOptions({
      queryKey: [...key, id, 'courses'],
      queryFn: async () =>
        parseAnswer(config.courseSchema, (await http.get(`${itemPath(id)}/courses`)).data).result.items,
      staleTime: STALE_TIME,
      refetchOnMount: 'always',
    });

  function useRefresh() {
    const queryClient = useQueryClient();
    return () => {
      for (const shown of [key, ...(config.shownIn ?? [])]) void queryClient.invalidateQueries({ queryKey: shown });
    };
  }

  return {
    key,
    listQuery,
    coursesQuery,
    useList() {
      return useQuery(listQuery);
    },
    useCourses(id: number) {
      return useQuery(coursesQuery(id));
    },
    /** POST {path} (id null) or PUT {path}/{id}: the answer's body. */
    useSave() {
      const refresh = useRefresh();
      return useMutation({
        mutationFn: async ({ id, body }: { id: number | null; body: Body }) =>
          id === null
            ? expectStatus(await http.post<unknown>(path, body), statuses?.create)
            : expectStatus(await http.put<unknown>(itemPath(id), body), statuses?.update),
        onSettled: refresh,
      });
    },
    /** DELETE {path}/{id}: the answer's body (none for 204). */
    useRemove() {
      const refresh = useRefresh();
      return useMutation({
        mutationFn: async (id: number) => expectStatus(await http.delete<unknown>(itemPath(id)), statuses?.remove),
        onSettled: refresh,
      });
    },
  };
}
