import {
  SCORM_LIMITS,
  SCORM_PACKAGE_PROBLEMS,
  scormPackagesResponse,
  scormUploadResponse,
  type ScormPackageInfo,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { errorStatus, serverMessage } from '../../lib/errors';
import { http } from '../../lib/http';
import { constructorKeys, MULTIPART } from './queries';
import { T } from './texts';

/** The constructor's SCORM calls (docs/rules.md §SCORM packages): the versions of a package and uploads. */

/** Under the lesson's own key, so that deleting the lesson drops its versions too. */
export const scormVersionsKey = (courseId: number, lessonId: number) =>
  [...constructorKeys.lesson(courseId, lessonId), 'scorm'] as const;

const scormPath = (courseId: number, lessonId: number) => `/api/courses/${courseId}/lessons/${lessonId}/scorm`;

export const scormVersionsQuery = (courseId: number, lessonId: number) =>
  queryOptions({
    queryKey: scormVersionsKey(courseId, lessonId),
    queryFn: async (): Promise<ScormPackageInfo[]> => {
      const { data } = await http.get<unknown>(scormPath(courseId, lessonId));
      return parseAnswer(scormPackagesResponse, data).result.versions;
    },
  });

export function useScormVersions(courseId: number, lessonId: number) {
  return useQuery(scormVersionsQuery(courseId, lessonId));
}

/**
 * What is wrong with a chosen file before it is sent: the server refuses the same (a .zip up to
 * 4 GB), but a 4 GB upload should not have to finish first to be told so.
 */
export function scormFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.zip$/i.test(file.name)) return SCORM_PACKAGE_PROBLEMS['not-zip'];
  if (file.size > SCORM_LIMITS.uploadBytes) return SCORM_PACKAGE_PROBLEMS['too-big-upload'];
  return null;
}

/**
 * Why an upload failed, in the words shown beside the upload button: the server's message (it names
 * the problem of a refused package), the size limit for a 413 without one (a proxy's answer), else
 * the general upload error.
 */
export function scormUploadProblem(error: unknown): string {
  const message = serverMessage(error);
  if (message) return message;
  if (errorStatus(error) === 413) return SCORM_PACKAGE_PROBLEMS['too-big-upload'];
  return T.scormUploadError;
}

/** POST …/scorm (multipart field `file`), with upload progress in percent (0–100). */
export async function uploadScormPackage(
  courseId: number,
  lessonId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ info: ScormPackageInfo; message: string }> {
  const form = new FormData();
  form.append('file', file);
  const { data } = await http.post<unknown>(scormPath(courseId, lessonId), form, {
    ...MULTIPART,
    onUploadProgress: (event) => {
      const total = event.total ?? file.size;
      if (total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)));
    },
  });
  const { package: info, message } = parseAnswer(scormUploadResponse, data).result;
  return { info, message };
}

/** An upload: the new version goes first in the list at once, then the list is asked again (learner counts). */
export function useUploadScorm(courseId: number, lessonId: number) {
  const qc = useQueryClient();
  const key = scormVersionsKey(courseId, lessonId);
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (percent: number) => void }) =>
      uploadScormPackage(courseId, lessonId, file, onProgress),
    onSuccess: ({ info }) => {
      qc.setQueryData<ScormPackageInfo[]>(key, (old) => [
        info,
        ...(old ?? []).filter((v) => v.version !== info.version),
      ]);
      void qc.invalidateQueries({ queryKey: key });
    },
  });
}
