/** A search query as compared: trimmed and lower-cased (Russian locale). */
export function normalizeQuery(query: string): string {
  return query.trim().toLocaleLowerCase('ru-RU');
}

/** Case-insensitive substring match of a normalized query in any of the texts; '' matches all. */
export function textMatches(normalizedQuery: string, ...texts: (string | null | undefined)[]): boolean {
  if (normalizedQuery === '') return true;
  return texts.some((text) => (text ?? '').toLocaleLowerCase('ru-RU').includes(normalizedQuery));
}

/**
 * Filters the items of each group by the query; groups left without items are dropped. With an
 * empty query the groups come back unchanged (empty groups included).
 */
export function filterGroups<G extends { items: readonly unknown[] }>(
  groups: G[],
  query: string,
  fields: (item: G['items'][number]) => (string | null | undefined)[],
): G[] {
  const q = normalizeQuery(query);
  if (q === '') return groups;
  return groups
    .map((group): G => ({ ...group, items: group.items.filter((item) => textMatches(q, ...fields(item))) }))
    .filter((group) => group.items.length > 0);
}

/** 'По запросу "<query>" ничего не найдено' (docs/product.md §Home). */
export function notFoundText(query: string): string {
  return `По запросу "${query.trim()}" ничего не найдено`;
}
