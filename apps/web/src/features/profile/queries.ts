import { profileResponse, successResponse, type Profile } from '@lms/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import type { PasswordForm } from './profile';

export const profileQueryKey = ['profile'] as const;

/** GET /api/profile: the signed-in user's own record, in a top-level `data` (spec 02 §7). */
export async function fetchProfile(): Promise<Profile> {
  const { data } = await http.get<unknown>('/api/profile');
  return parseAnswer(profileResponse, data).data;
}

export const profileQuery = queryOptions({ queryKey: profileQueryKey, queryFn: fetchProfile });

export function useProfile() {
  return useQuery(profileQuery);
}

/**
 * POST /api/profile/change-password. `result.success` true is a success; a failure (422, 429, or
 * `success: false`) throws, carrying the server's `result.message` (see lib/errors `messageOr`).
 */
export async function changePassword(form: PasswordForm): Promise<void> {
  const body: PasswordForm = {
    old_password: form.old_password,
    new_password: form.new_password,
    new_password_confirmation: form.new_password_confirmation,
  };
  const { data } = await http.post<unknown>('/api/profile/change-password', body);
  parseAnswer(successResponse, data);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
