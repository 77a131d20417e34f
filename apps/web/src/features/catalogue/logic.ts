import { UNCATEGORISED_ID, type CatalogueCategory, type CategoryItem } from '@lms/contract';

/** Who may open the catalogue and use its editing and creating buttons (docs/product.md §Catalogue). */
export const CATALOGUE_PERMISSION = 'catalogue.manage';

export function canManageCatalogue(permissions: readonly string[] | undefined): boolean {
  return (permissions ?? []).includes(CATALOGUE_PERMISSION);
}

/** A category as edit mode holds it: order is the list order. The -1 group is never in it. */
export interface DraftCategory {
  id: number;
  name: string;
}

export function isUncategorised(category: { id: number }): boolean {
  return category.id === UNCATEGORISED_ID;
}

/** The real categories (not -1) in the server's order: where edit mode starts. */
export function draftFrom(categories: CatalogueCategory[]): DraftCategory[] {
  return categories.filter((c) => !isUncategorised(c)).map(({ id, name }) => ({ id, name }));
}

/** The list with the item at `index` moved one place up (-1) or down (+1); unchanged at the ends. */
export function moveItem<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}

/** The body of POST /api/courses/categories/update: names trimmed, sort_order = position. */
export function updatePayload(draft: readonly DraftCategory[]): CategoryItem[] {
  return draft
    .filter((c) => !isUncategorised(c))
    .map((c, index) => ({ id: c.id, name: c.name.trim(), sort_order: index }));
}

/** True when the draft's order or any name differs from the categories as loaded. */
export function draftChanged(draft: readonly DraftCategory[], categories: CatalogueCategory[]): boolean {
  const loaded = draftFrom(categories);
  if (loaded.length !== draft.length) return true;
  return draft.some((c, i) => c.id !== loaded[i]?.id || c.name.trim() !== loaded[i]?.name);
}

/**
 * The categories to show in edit mode: in the draft's order with the draft's names, categories the
 * draft does not know yet after them, and the uncategorised group (-1) always last.
 */
export function applyDraft(categories: CatalogueCategory[], draft: readonly DraftCategory[]): CatalogueCategory[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const ordered: CatalogueCategory[] = [];
  for (const [index, d] of draft.entries()) {
    const category = byId.get(d.id);
    if (category) ordered.push({ ...category, name: d.name, sort_order: index });
  }
  const known = new Set(draft.map((d) => d.id));
  const rest = categories.filter((c) => !known.has(c.id) && !isUncategorised(c));
  const loose = categories.filter(isUncategorised);
  return [...ordered, ...rest, ...loose];
}

/** The catalogue with one category renamed (optimistic update, and its undo). */
export function withCategoryName(categories: CatalogueCategory[], id: number, name: string): CatalogueCategory[] {
  return categories.map((c) => (c.id === id ? { ...c, name } : c));
}
