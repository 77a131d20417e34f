import type { Ziggy } from '@lms/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../app/http';

export const ziggyQueryKey = ['ziggy'] as const;

function isZiggy(data: unknown): data is Ziggy {
  return (
    typeof data === 'object' &&
    data !== null &&
    'routes' in data &&
    typeof data.routes === 'object' &&
    data.routes !== null
  );
}

/**
 * GET /ziggy: the server's named-route table, loaded once on start (spec 01 §4, §7).
 * A failure leaves it null and is only logged; the user sees no message (spec 01 §8).
 */
export async function fetchZiggy(): Promise<Ziggy | null> {
  try {
    const { data } = await http.get<unknown>('/ziggy');
    if (!isZiggy(data)) throw new Error('routes missing');
    return data;
  } catch {
    console.error('Ошибка при получении маршрутов');
    return null;
  }
}

/** The route table: `undefined` while loading, `null` when it failed, else the table. */
export function useZiggy(): Ziggy | null | undefined {
  const { data } = useQuery({
    queryKey: ziggyQueryKey,
    queryFn: fetchZiggy,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return data;
}

/** Absolute path of a named route ('/' + uri), or null when the table lacks it. */
export function routePath(ziggy: Ziggy | null | undefined, name: string): string | null {
  const uri = ziggy?.routes[name]?.uri;
  if (uri === undefined) return null;
  return '/' + uri.replace(/^\/+/, '');
}
