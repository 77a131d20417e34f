import { UNCATEGORISED_ID, type CatalogueCategory, type CategoryItem } from '@lms/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../app/http';

export const catalogueQueryKey = ['catalogue'] as const;

interface CatalogueAnswer {
  result?: { success?: boolean; items?: CatalogueCategory[] };
}

interface MessageAnswer {
  result?: { success?: boolean; message?: string };
}

interface CreateCourseAnswer {
  result?: { success?: boolean; message?: string; item?: { id: number; name: string; category_id: number | null } };
}

interface CategoryAnswer {
  result?: { success?: boolean; message?: string; item?: CategoryItem };
}

/** A non-success answer of a call that did answer 2xx. */
export class UnsuccessfulAnswer extends Error {
  constructor(readonly serverMessage: string | undefined) {
    super(serverMessage ?? 'unsuccessful answer');
  }
}

function ensureSuccess<R extends { success?: boolean; message?: string }>(result: R | undefined): R {
  if (!result?.success) throw new UnsuccessfulAnswer(result?.message);
  return result;
}

/** GET /api/courses: the categories with their courses; the uncategorised group (-1) last. */
export async function fetchCatalogue(): Promise<CatalogueCategory[]> {
  const { data } = await http.get<CatalogueAnswer>('/api/courses');
  const result = ensureSuccess(data?.result);
  if (!Array.isArray(result.items)) throw new UnsuccessfulAnswer(undefined);
  const items = result.items.map((category) => ({
    ...category,
    items: Array.isArray(category.items) ? category.items : [],
  }));
  // Keep the uncategorised pseudo-category last whatever its sort_order.
  return [...items.filter((c) => c.id !== UNCATEGORISED_ID), ...items.filter((c) => c.id === UNCATEGORISED_ID)];
}

export function useCatalogue(enabled: boolean) {
  return useQuery({ queryKey: catalogueQueryKey, queryFn: fetchCatalogue, enabled });
}

/** POST /api/courses { name, category_id? } → the new course's id (and the server's message). */
export async function createCourse(name: string, categoryId: number | null): Promise<{ id: number; message?: string }> {
  const body = categoryId === null || categoryId === UNCATEGORISED_ID ? { name } : { name, category_id: categoryId };
  const { data } = await http.post<CreateCourseAnswer>('/api/courses', body);
  const result = ensureSuccess(data?.result);
  if (!result.item) throw new UnsuccessfulAnswer(result.message);
  return { id: result.item.id, message: result.message };
}

/** POST /api/courses/categories { name }. */
export async function createCategory(name: string): Promise<{ item: CategoryItem | undefined; message?: string }> {
  const { data } = await http.post<CategoryAnswer>('/api/courses/categories', { name });
  const result = ensureSuccess(data?.result);
  return { item: result.item, message: result.message };
}

/** POST /api/courses/categories/update { categories: [{ id, name, sort_order }] } (never id -1). */
export async function saveCategories(categories: CategoryItem[]): Promise<string | undefined> {
  const body = { categories: categories.filter((c) => c.id !== UNCATEGORISED_ID) };
  const { data } = await http.post<MessageAnswer>('/api/courses/categories/update', body);
  return ensureSuccess(data?.result).message;
}

/** PUT /api/courses/categories/{id} { name }. */
export async function renameCategory(id: number, name: string): Promise<void> {
  const { data } = await http.put<CategoryAnswer>(`/api/courses/categories/${id}`, { name });
  ensureSuccess(data?.result);
}

/** DELETE /api/courses/categories/{id} (its courses go too). */
export async function deleteCategory(id: number): Promise<string | undefined> {
  const { data } = await http.delete<MessageAnswer>(`/api/courses/categories/${id}`);
  return ensureSuccess(data?.result).message;
}
