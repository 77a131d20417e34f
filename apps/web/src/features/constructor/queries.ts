import {
  constructorCourseResponse,
  courseImageResponse,
  lessonResponse,
  moduleResponse,
  modulesResponse,
  successResponse,
  updateCourseResponse,
  type ConstructorCourse,
  type ConstructorLesson,
  type ConstructorModule,
  type UpdateCourseRequest,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { parseAnswer, successMessage } from '../../lib/answer';
import { http } from '../../lib/http';
import { catalogueQueryKey } from '../../shared/queryKeys';
import { sortedModules, unpublishedItems, withItemOrder, withModuleOrder, type ModuleItem } from './logic';
import { T } from './texts';

export const constructorKeys = {
  all: ['constructor'] as const,
  course: (courseId: number) => ['constructor', 'course', courseId] as const,
  modules: (courseId: number) => ['constructor', 'modules', courseId] as const,
  lessons: (courseId: number) => ['constructor', 'lesson', courseId] as const,
  lesson: (courseId: number, lessonId: number) => ['constructor', 'lesson', courseId, lessonId] as const,
  test: (courseId: number, testId: number) => ['constructor', 'test', courseId, testId] as const,
  questions: (testId: number) => ['constructor', 'questions', testId] as const,
  statistics: (testId: number) => ['constructor', 'statistics', testId] as const,
};

/** Uploads may be large (a file block holds up to 4 GB): no time-out, the browser sets the boundary. */
export const MULTIPART = { headers: { 'Content-Type': 'multipart/form-data' }, timeout: 0 } as const;

// ── queries ──

/** GET /api/courses/{courseId} → result.course */
export async function fetchCourse(courseId: number): Promise<ConstructorCourse> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}`);
  return parseAnswer(constructorCourseResponse, data).result.course;
}

/** GET /api/courses/{courseId}/modules → result.items, in their order. */
export async function fetchModules(courseId: number): Promise<ConstructorModule[]> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/modules`);
  return sortedModules(parseAnswer(modulesResponse, data).result.items);
}

/** GET /api/courses/{courseId}/lessons/{lessonId} → result.lesson with its contents. */
export async function fetchLesson(courseId: number, lessonId: number): Promise<ConstructorLesson> {
  const { data } = await http.get<unknown>(`/api/courses/${courseId}/lessons/${lessonId}`);
  return parseAnswer(lessonResponse, data).result.lesson;
}

export const courseQuery = (courseId: number) =>
  queryOptions({ queryKey: constructorKeys.course(courseId), queryFn: () => fetchCourse(courseId) });

export const modulesQuery = (courseId: number) =>
  queryOptions({ queryKey: constructorKeys.modules(courseId), queryFn: () => fetchModules(courseId) });

export const lessonQuery = (courseId: number, lessonId: number) =>
  queryOptions({
    queryKey: constructorKeys.lesson(courseId, lessonId),
    queryFn: () => fetchLesson(courseId, lessonId),
  });

export function useCourse(courseId: number) {
  return useQuery(courseQuery(courseId));
}

export function useModules(courseId: number) {
  return useQuery(modulesQuery(courseId));
}

export function useLesson(courseId: number, lessonId: number) {
  return useQuery(lessonQuery(courseId, lessonId));
}

// ── cache helpers ──

function setCourse(qc: QueryClient, courseId: number, update: (course: ConstructorCourse) => ConstructorCourse) {
  qc.setQueryData<ConstructorCourse>(constructorKeys.course(courseId), (old) => (old ? update(old) : old));
}

export function setModules(
  qc: QueryClient,
  courseId: number,
  update: (modules: ConstructorModule[]) => ConstructorModule[],
) {
  qc.setQueryData<ConstructorModule[]>(constructorKeys.modules(courseId), (old) =>
    old ? sortedModules(update(old)) : old,
  );
}

export function refreshModules(qc: QueryClient, courseId: number) {
  return qc.invalidateQueries({ queryKey: constructorKeys.modules(courseId) });
}

function refreshCatalogue(qc: QueryClient) {
  return qc.invalidateQueries({ queryKey: catalogueQueryKey });
}

// ── the course ──

/**
 * PUT /api/courses/{courseId} { title } or { description } (the header), or the course settings;
 * answers the saved course.
 */
export function useUpdateCourse(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: { title: string } | { description: string } | UpdateCourseRequest) => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}`, change);
      const { course, message } = parseAnswer(updateCourseResponse, data).result;
      return { course, message: message || T.saved };
    },
    onSuccess: ({ course }) => {
      qc.setQueryData(constructorKeys.course(courseId), course);
      void refreshCatalogue(qc);
    },
  });
}

/** POST /api/courses/{id}/image, multipart field `image` → result.image (a path without a leading '/'). */
export function useUploadCourseImage(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('image', file);
      const { data } = await http.post<unknown>(`/api/courses/${courseId}/image`, form, MULTIPART);
      const { image, message } = parseAnswer(courseImageResponse, data).result;
      return { image, message: message || T.imageUploaded };
    },
    onSuccess: ({ image }) => {
      setCourse(qc, courseId, (course) => ({ ...course, image }));
      void refreshCatalogue(qc);
    },
  });
}

/** POST /api/courses/{id}/publish { is_published }. */
export function usePublishCourse(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (isPublished: boolean) => {
      const { data } = await http.post<unknown>(`/api/courses/${courseId}/publish`, { is_published: isPublished });
      parseAnswer(successResponse, data);
      return successMessage(data, T.statusChanged);
    },
    onSuccess: (_message, isPublished) => {
      setCourse(qc, courseId, (course) => ({ ...course, is_published: isPublished }));
      void refreshCatalogue(qc);
    },
  });
}

/** DELETE /api/admin/courses/{courseId}. */
export function useDeleteCourse(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await http.delete<unknown>(`/api/admin/courses/${courseId}`);
      parseAnswer(successResponse, data);
      return successMessage(data, T.courseDeleted);
    },
    onSuccess: () => {
      qc.removeQueries({ queryKey: constructorKeys.course(courseId) });
      qc.removeQueries({ queryKey: constructorKeys.modules(courseId) });
      qc.removeQueries({ queryKey: constructorKeys.lessons(courseId) });
      void refreshCatalogue(qc);
    },
  });
}

// ── modules ──

/** POST /api/courses/modules { name, course_id, sort_order }: the new module goes last. */
export function useCreateModule(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const count = qc.getQueryData<ConstructorModule[]>(constructorKeys.modules(courseId))?.length ?? 0;
      const { data } = await http.post<unknown>('/api/courses/modules', {
        name,
        course_id: courseId,
        sort_order: count,
      });
      const { item, message } = parseAnswer(moduleResponse, data).result;
      return { item, message: message || T.moduleCreated };
    },
    onSuccess: ({ item }) => {
      setModules(qc, courseId, (modules) => [...modules.filter((m) => m.id !== item.id), item]);
      void refreshModules(qc, courseId);
    },
  });
}

/** PUT /api/courses/{courseId}/modules/{moduleId} { name }: renamed at once, back when refused. */
export function useRenameModule(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string; previous: string }) => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}/modules/${id}`, { name });
      parseAnswer(successResponse, data);
      return successMessage(data, T.moduleRenamed);
    },
    onMutate: ({ id, name }) => setModules(qc, courseId, (ms) => ms.map((m) => (m.id === id ? { ...m, name } : m))),
    onError: (_error, { id, previous }) =>
      setModules(qc, courseId, (ms) => ms.map((m) => (m.id === id ? { ...m, name: previous } : m))),
    onSettled: () => void refreshModules(qc, courseId),
  });
}

/** DELETE /api/courses/{courseId}/modules/{moduleId}: the module and its lessons and tests. */
export function useDeleteModule(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await http.delete<unknown>(`/api/courses/${courseId}/modules/${id}`);
      parseAnswer(successResponse, data);
      return successMessage(data, T.moduleDeleted);
    },
    onSuccess: (_message, id) => {
      setModules(qc, courseId, (ms) => ms.filter((m) => m.id !== id));
      void refreshModules(qc, courseId);
    },
  });
}

/** PUT /api/courses/{courseId}/modules/sort { modules: [id, sort_order] }: the new order shows at once. */
export function useSortModules(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (orderedIds: number[]) => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}/modules/sort`, {
        modules: orderedIds.map((id, index) => ({ id, sort_order: index })),
      });
      parseAnswer(successResponse, data);
      return successMessage(data, T.modulesSorted);
    },
    onMutate: async (orderedIds) => {
      await qc.cancelQueries({ queryKey: constructorKeys.modules(courseId) });
      setModules(qc, courseId, (ms) => withModuleOrder(ms, orderedIds));
    },
    onError: () => void refreshModules(qc, courseId),
  });
}

/**
 * PUT /api/courses/{courseId}/modules/{moduleId}/items/sort { items: [id, type, sort_order] }: the
 * module's lessons and tests in one sequence, shown at once.
 */
export function useSortItems(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ moduleId, items }: { moduleId: number; items: ModuleItem[] }) => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}/modules/${moduleId}/items/sort`, {
        items: items.map((item, index) => ({ id: item.id, type: item.type, sort_order: index })),
      });
      parseAnswer(successResponse, data);
      return successMessage(data, T.itemsSorted);
    },
    onMutate: async ({ moduleId, items }) => {
      await qc.cancelQueries({ queryKey: constructorKeys.modules(courseId) });
      setModules(qc, courseId, (ms) => withItemOrder(ms, moduleId, items));
    },
    onError: () => void refreshModules(qc, courseId),
  });
}

// ── publish-all (docs/product.md §Constructor) ──

/** PUT of one item with its name and is_published: true (lessons; tests through the test call). */
async function publishItem(courseId: number, item: ModuleItem): Promise<void> {
  const path =
    item.type === 'lesson'
      ? `/api/courses/${courseId}/lessons/${item.id}`
      : `/api/courses/${courseId}/tests/${item.id}`;
  const { data } = await http.put<unknown>(path, { name: item.name, is_published: true });
  parseAnswer(successResponse, data);
}

export interface PublishAllResult {
  tried: number;
  failed: ModuleItem[];
}

/**
 * Publishes every unpublished lesson and test of the course, one after another (there is no
 * unpublish here), from a fresh module list; the server marks a module published when all its
 * items are. A failure to read the list throws; failures of single items are counted.
 */
export function usePublishAll(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<PublishAllResult> => {
      const modules = await qc.fetchQuery({ ...modulesQuery(courseId), staleTime: 0 });
      const items = unpublishedItems(modules);
      const failed: ModuleItem[] = [];
      for (const item of items) {
        try {
          await publishItem(courseId, item);
        } catch (error) {
          console.error(T.publishItemError(item.type, item.name), error);
          failed.push(item);
        }
      }
      return { tried: items.length, failed };
    },
    onSettled: () => {
      void refreshModules(qc, courseId);
      void qc.invalidateQueries({ queryKey: constructorKeys.lessons(courseId) });
      void refreshCatalogue(qc);
    },
  });
}
