import {
  createLessonResponse,
  saveContentsResponse,
  successResponse,
  updateLessonResponse,
  uploadResponse,
  type ConstructorLesson,
  type LessonBlock,
  type LessonKind,
  type SaveBlock,
  type UploadResult,
} from '@lms/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { parseAnswer, successMessage } from '../../lib/answer';
import { http } from '../../lib/http';
import { withLesson } from './logic';
import { constructorKeys, MULTIPART, refreshModules, setModules } from './queries';
import { T } from './texts';

/** The constructor's lesson calls: creating, renaming and publishing, contents, and block uploads. */

// ── lessons ──

/**
 * POST /api/courses/lessons { name, module_id, kind } → result.item (it goes last in its module).
 * `kind: 'scorm'` makes a SCORM item; its package is uploaded on its page next.
 */
export function useCreateLesson(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ moduleId, name, kind }: { moduleId: number; name: string; kind?: LessonKind }) => {
      const body = kind === 'scorm' ? { name, module_id: moduleId, kind } : { name, module_id: moduleId };
      const { data } = await http.post<unknown>('/api/courses/lessons', body);
      const { item, message } = parseAnswer(createLessonResponse, data).result;
      return { item, message: message || T.lessonCreated };
    },
    onSuccess: ({ item }) => {
      setModules(qc, courseId, (ms) =>
        ms.map((m) => (m.id === item.module_id ? { ...m, lessons: [...m.lessons, item] } : m)),
      );
      void refreshModules(qc, courseId);
    },
  });
}

/** PUT /api/courses/{courseId}/lessons/{lessonId} { name } or { name, is_published } → result.message. */
export async function updateLesson(
  courseId: number,
  lessonId: number,
  change: { name: string; is_published?: boolean },
) {
  const { data } = await http.put<unknown>(`/api/courses/${courseId}/lessons/${lessonId}`, change);
  const { item, message } = parseAnswer(updateLessonResponse, data).result;
  return { item, message };
}

/** A lesson renamed or (un)published: the module list and the lesson page show it. */
function lessonChanged(qc: QueryClient, courseId: number, item: { id: number; name: string; is_published: boolean }) {
  setModules(qc, courseId, (ms) => withLesson(ms, item));
  qc.setQueryData<ConstructorLesson>(constructorKeys.lesson(courseId, item.id), (old) =>
    old ? { ...old, name: item.name, is_published: item.is_published } : old,
  );
}

export function useUpdateLesson(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: { lessonId: number; name: string; is_published?: boolean }) => {
      const { lessonId, ...body } = change;
      return updateLesson(courseId, lessonId, body);
    },
    onSuccess: ({ item }) => {
      lessonChanged(qc, courseId, item);
      void refreshModules(qc, courseId);
    },
  });
}

/** DELETE /api/courses/lessons/{id}. */
export function useDeleteLesson(courseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (lessonId: number) => {
      const { data } = await http.delete<unknown>(`/api/courses/lessons/${lessonId}`);
      parseAnswer(successResponse, data);
      return successMessage(data, T.lessonDeleted);
    },
    onSuccess: (_message, lessonId) => {
      setModules(qc, courseId, (ms) => ms.map((m) => ({ ...m, lessons: m.lessons.filter((l) => l.id !== lessonId) })));
      qc.removeQueries({ queryKey: constructorKeys.lesson(courseId, lessonId) });
      void refreshModules(qc, courseId);
    },
  });
}

/** PUT /api/courses/{courseId}/lessons/{lessonId}/contents { contents } → result.contents (real ids). */
export function useSaveContents(courseId: number, lessonId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (contents: SaveBlock[]): Promise<{ contents: LessonBlock[]; message: string }> => {
      const { data } = await http.put<unknown>(`/api/courses/${courseId}/lessons/${lessonId}/contents`, {
        contents,
      });
      const result = parseAnswer(saveContentsResponse, data).result;
      return { contents: result.contents, message: result.message || T.contentsSaved };
    },
    onSuccess: ({ contents }) => {
      qc.setQueryData<ConstructorLesson>(constructorKeys.lesson(courseId, lessonId), (old) =>
        old ? { ...old, contents } : old,
      );
    },
  });
}

// ── uploads of lesson blocks (docs/product.md §Constructor) ──

/** POST /api/upload-image: lesson_id first, then image → file_path, original_filename, url. */
export async function uploadLessonImage(lessonId: number, file: File): Promise<UploadResult> {
  const form = new FormData();
  form.append('lesson_id', String(lessonId));
  form.append('image', file);
  const { data } = await http.post<unknown>('/api/upload-image', form, MULTIPART);
  return parseAnswer(uploadResponse, data).result;
}

/** POST /api/upload-file: lesson_id first, then file, with upload progress (0–100). */
export async function uploadLessonFile(
  lessonId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  const form = new FormData();
  form.append('lesson_id', String(lessonId));
  form.append('file', file);
  const { data } = await http.post<unknown>('/api/upload-file', form, {
    ...MULTIPART,
    onUploadProgress: (event) => {
      const total = event.total ?? file.size;
      if (total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
  return parseAnswer(uploadResponse, data).result;
}
