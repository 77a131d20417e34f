import type { MenuItem, SocialLink } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schema } from '../../lib/answer';
import { http } from '../../lib/http';
import { number, object, string, union, type Shape } from '../../lib/shape';
import { routePath, useZiggy } from '../../shared/ziggy';

// The contract's `menuItem` and `socialLink`, without zod (lib/shape.ts): the layout loads them first.
export const menuItem: Shape<MenuItem> = object({ name: string, link: string, icon: string, 'icon-active': string });
export const socialLink: Shape<SocialLink> = object({
  id: union(number, string),
  name: string,
  link: string,
  icon: string,
});

export const menuQueryKey = ['menu'] as const;
export const socialLinksQueryKey = ['social-links'] as const;
export const SOCIAL_LINKS_PATH = '/storage/json/social.links.json';

/** The entries of a list that match the contract's item schema; the rest are dropped. */
function validItems<T>(list: unknown, item: Schema<T>): T[] | null {
  if (!Array.isArray(list)) return null;
  return list.flatMap((entry: unknown) => {
    const parsed = item.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** GET {menu route}: a failure, or `items` that is not an array, gives an empty menu (docs/product.md §Session). */
export async function fetchMenu(path: string): Promise<MenuItem[]> {
  try {
    const { data } = await http.get<unknown>(path);
    const items = typeof data === 'object' && data !== null && 'items' in data ? data.items : undefined;
    return validItems(items, menuItem) ?? [];
  } catch {
    return [];
  }
}

export const menuQuery = (path: string | null) =>
  queryOptions({
    queryKey: [...menuQueryKey, path],
    queryFn: () => fetchMenu(path ?? ''),
    enabled: path !== null,
    staleTime: 5 * 60 * 1000,
    retry: false,
  });

/**
 * The side menu. It is requested only once the route table is loaded and holds the 'menu' entry
 * (docs/product.md §Session); until then it is empty (and "loading" while the table itself loads).
 */
export function useMenu(): { items: MenuItem[]; isLoading: boolean } {
  const ziggy = useZiggy();
  const query = useQuery(menuQuery(routePath(ziggy, 'menu')));
  return { items: query.data ?? [], isLoading: ziggy === undefined || query.isLoading };
}

/**
 * GET /storage/json/social.links.json: a file an administrator edits, so every link is checked
 * against the contract and a bad one dropped; a failure is only logged (docs/product.md §Session).
 */
export async function fetchSocialLinks(): Promise<SocialLink[]> {
  try {
    const links = validItems((await http.get<unknown>(SOCIAL_LINKS_PATH)).data, socialLink);
    if (links === null) throw new Error('not an array');
    return links;
  } catch (error) {
    console.error('Ошибка при загрузке ссылок на социальные сети', error);
    return [];
  }
}

export const socialLinksQuery = queryOptions({
  queryKey: socialLinksQueryKey,
  queryFn: fetchSocialLinks,
  staleTime: Infinity,
  retry: false,
});

export function useSocialLinks(): SocialLink[] {
  return useQuery(socialLinksQuery).data ?? [];
}
