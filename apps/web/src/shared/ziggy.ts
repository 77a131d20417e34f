import type { Ziggy } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../lib/http';
import { array, int, nullable, object, record, string, type Shape } from '../lib/shape';
import { READ_ONCE, ziggyQueryKey } from './queryKeys';

/** The contract's `ziggyResponse`, without zod (lib/shape.ts). */
export const ziggyAnswer: Shape<Ziggy> = object({
  url: string,
  port: nullable(int),
  defaults: record(string),
  routes: record(object({ uri: string, methods: array(string) })),
});

/**
 * GET /ziggy: the server's named-route table, loaded once on start (docs/product.md §Session).
 * A failure, or an answer that is not a route table, leaves it null and is only logged; the user
 * sees no message (docs/product.md §Session).
 */
export async function fetchZiggy(): Promise<Ziggy | null> {
  try {
    const parsed = ziggyAnswer.safeParse((await http.get<unknown>('/ziggy')).data);
    if (!parsed.success) throw new Error('routes missing');
    return parsed.data;
  } catch {
    console.error('Ошибка при получении маршрутов');
    return null;
  }
}

export const ziggyQuery = queryOptions({
  queryKey: ziggyQueryKey,
  queryFn: fetchZiggy,
  ...READ_ONCE,
  retry: false,
});

/** The route table: `undefined` while loading, `null` when it failed, else the table. */
export function useZiggy(): Ziggy | null | undefined {
  return useQuery(ziggyQuery).data;
}

/** Absolute path of a named route ('/' + uri), or null when the table lacks it. */
export function routePath(ziggy: Ziggy | null | undefined, name: string): string | null {
  const uri = ziggy?.routes[name]?.uri;
  if (uri === undefined) return null;
  return '/' + uri.replace(/^\/+/, '');
}
