import { certificateSettingsResponse, saveCertificateSettingsResponse, type CertificateSettings } from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import { MULTIPART } from './queries';

/** What the certificate card sends: the contract's request, the logo left to its own calls. */
export interface CertificateForm {
  enabled: boolean;
  title: string;
  signer_name: string;
  signer_position: string;
}

export interface SavedCertificate {
  settings: CertificateSettings;
  /** How many certificates switching on issued at once (to those who had already completed). */
  issued: number;
  message: string;
}

const certificateKey = (courseId: number) => ['constructor', 'certificate', courseId] as const;
const settingsPath = (courseId: number) => `/api/courses/${courseId}/certificate`;

export const certificateSettingsQuery = (courseId: number) =>
  queryOptions({
    queryKey: certificateKey(courseId),
    queryFn: async () =>
      parseAnswer(certificateSettingsResponse, (await http.get<unknown>(settingsPath(courseId))).data).result.settings,
  });

export function useCertificateSettings(courseId: number) {
  return useQuery(certificateSettingsQuery(courseId));
}

/** A blank field is no signer at all (null), not an empty line on the certificate. */
const orNull = (value: string) => value.trim() || null;

function useSaveAnswer(courseId: number) {
  const queryClient = useQueryClient();
  return (data: unknown): SavedCertificate => {
    const { settings, issued, message } = parseAnswer(saveCertificateSettingsResponse, data).result;
    queryClient.setQueryData(certificateKey(courseId), settings);
    return { settings, issued, message };
  };
}

/** PUT /api/courses/{courseId}/certificate; `removeLogo` sends `logo: null`. */
export function useSaveCertificate(courseId: number) {
  const read = useSaveAnswer(courseId);
  return useMutation({
    mutationFn: async ({ form, removeLogo = false }: { form: CertificateForm; removeLogo?: boolean }) => {
      const body = {
        enabled: form.enabled,
        title: form.title.trim(),
        signer_name: orNull(form.signer_name),
        signer_position: orNull(form.signer_position),
        ...(removeLogo ? { logo: null } : {}),
      };
      return read((await http.put<unknown>(settingsPath(courseId), body)).data);
    },
  });
}

/** POST /api/courses/{courseId}/certificate/logo, multipart field `image`: stored at once. */
export function useUploadCertificateLogo(courseId: number) {
  const read = useSaveAnswer(courseId);
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('image', file);
      return read((await http.post<unknown>(`${settingsPath(courseId)}/logo`, form, MULTIPART)).data);
    },
  });
}
