import {
  UNCATEGORISED_ID,
  catalogueResponse,
  categoryResponse,
  createCourseResponse,
  successResponse,
  type CatalogueCategory,
  type CategoryItem,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { catalogueQueryKey } from '../../shared/queryKeys';
import { applyDraft, isUncategorised, updatePayload, withCategoryName, type DraftCategory } from './logic';

/** GET /api/courses: the categories with their courses; the uncategorised group (-1) last. */
export async function fetchCatalogue(): Promise<CatalogueCategory[]> {
  const { data } = await http.get<unknown>('/api/courses');
  const items = parseAnswer(catalogueResponse, data).result.items;
  // Keep the uncategorised pseudo-category last whatever its sort_order.
  return [...items.filter((c) => !isUncategorised(c)), ...items.filter(isUncategorised)];
}

export const catalogueQuery = queryOptions({ queryKey: catalogueQueryKey, queryFn: fetchCatalogue });

export function useCatalogue() {
  return useQuery(catalogueQuery);
}

function setCatalogue(queryClient: QueryClient, update: (categories: CatalogueCategory[]) => CatalogueCategory[]) {
  queryClient.setQueryData<CatalogueCategory[]>(catalogueQueryKey, (old) => (old ? update(old) : old));
}

function refresh(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: catalogueQueryKey });
}

/** POST /api/courses { name, category_id? } → the new course's id (the constructor opens next). */
export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, categoryId }: { name: string; categoryId: number | null }) => {
      const body =
        categoryId === null || categoryId === UNCATEGORISED_ID ? { name } : { name, category_id: categoryId };
      const { data } = await http.post<unknown>('/api/courses', body);
      return parseAnswer(createCourseResponse, data).result.item;
    },
    onSuccess: () => void refresh(queryClient),
  });
}

/** POST /api/courses/categories { name }: the new category shows at once, before the uncategorised group. */
export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<CategoryItem> => {
      const { data } = await http.post<unknown>('/api/courses/categories', { name });
      return parseAnswer(categoryResponse, data).result.item;
    },
    onSuccess: (item) => {
      setCatalogue(queryClient, (old) => [
        ...old.filter((c) => !isUncategorised(c)),
        { ...item, items: [] },
        ...old.filter(isUncategorised),
      ]);
      void refresh(queryClient);
    },
  });
}

/**
 * POST /api/courses/categories/update { categories: [{ id, name, sort_order }] } (never id -1):
 * the order and names of edit mode, shown at once when saved.
 */
export function useSaveCategories() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (draft: readonly DraftCategory[]) => {
      const { data } = await http.post<unknown>('/api/courses/categories/update', {
        categories: updatePayload(draft),
      });
      return parseAnswer(successResponse, data).result.message;
    },
    onSuccess: (_message, draft) => {
      setCatalogue(queryClient, (old) => applyDraft(old, draft).map((c) => ({ ...c, name: c.name.trim() })));
      void refresh(queryClient);
    },
  });
}

/** PUT /api/courses/categories/{id} { name }: renamed at once, and back when the server refuses. */
export function useRenameCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string; previous: string }) => {
      const { data } = await http.put<unknown>(`/api/courses/categories/${id}`, { name });
      parseAnswer(successResponse, data);
    },
    onMutate: ({ id, name }) => setCatalogue(queryClient, (old) => withCategoryName(old, id, name)),
    onError: (_error, { id, previous }) => setCatalogue(queryClient, (old) => withCategoryName(old, id, previous)),
    onSuccess: () => void refresh(queryClient),
  });
}

/** DELETE /api/courses/categories/{id} (its courses go too). */
export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await http.delete<unknown>(`/api/courses/categories/${id}`);
      return parseAnswer(successResponse, data).result.message;
    },
    onSuccess: (_message, id) => {
      setCatalogue(queryClient, (old) => old.filter((c) => c.id !== id));
      void refresh(queryClient);
    },
  });
}
