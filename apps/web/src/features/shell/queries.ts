import type { MenuItem, SocialLink } from '@lms/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../app/http';
import { routePath, useZiggy } from '../../shared/ziggy';

export const menuQueryKey = ['menu'] as const;
export const socialLinksQueryKey = ['social-links'] as const;
export const SOCIAL_LINKS_PATH = '/storage/json/social.links.json';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isMenuItem(value: unknown): value is MenuItem {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.link === 'string' &&
    typeof value.icon === 'string' &&
    typeof value['icon-active'] === 'string'
  );
}

function isSocialLink(value: unknown): value is SocialLink {
  return (
    isRecord(value) &&
    (typeof value.id === 'number' || typeof value.id === 'string') &&
    typeof value.name === 'string' &&
    typeof value.link === 'string' &&
    typeof value.icon === 'string'
  );
}

/** GET {menu route}: a failure, or `items` that is not an array, gives an empty menu (spec 01 §8). */
export async function fetchMenu(path: string): Promise<MenuItem[]> {
  try {
    const { data } = await http.get<unknown>(path);
    if (!isRecord(data) || !Array.isArray(data.items)) return [];
    return data.items.filter(isMenuItem);
  } catch {
    return [];
  }
}

/**
 * The side menu. It is requested only once the route table is loaded and holds the 'menu' entry
 * (spec 01 §4); until then it is empty (and "loading" while the table itself loads).
 */
export function useMenu(): { items: MenuItem[]; isLoading: boolean } {
  const ziggy = useZiggy();
  const path = routePath(ziggy, 'menu');
  const query = useQuery({
    queryKey: [...menuQueryKey, path],
    queryFn: () => fetchMenu(path ?? ''),
    enabled: path !== null,
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
  return { items: query.data ?? [], isLoading: ziggy === undefined || query.isLoading };
}

/** GET /storage/json/social.links.json; a failure is only logged (spec 01 §8). */
export async function fetchSocialLinks(): Promise<SocialLink[]> {
  try {
    const { data } = await http.get<unknown>(SOCIAL_LINKS_PATH);
    if (!Array.isArray(data)) throw new Error('not an array');
    return data.filter(isSocialLink);
  } catch (error) {
    console.error('Ошибка при загрузке ссылок на социальные сети', error);
    return [];
  }
}

export function useSocialLinks(): SocialLink[] {
  const { data } = useQuery({
    queryKey: socialLinksQueryKey,
    queryFn: fetchSocialLinks,
    staleTime: Infinity,
    retry: false,
  });
  return data ?? [];
}
