import {
  profilePreferencesResponse,
  profileResponse,
  successResponse,
  type Profile,
  type ProfilePreferences,
  type ProfilePreferencesChange,
} from '@lms/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http } from '../../lib/http';
import type { PasswordForm } from './profile';

export const profileQueryKey = ['profile'] as const;

/** GET /api/profile: the signed-in user's own record, in a top-level `data` (docs/product.md §Profile). */
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

/** PUT /api/profile/preferences: the saved preferences, or a throw carrying the server's message. */
export async function savePreferences(preferences: ProfilePreferencesChange): Promise<ProfilePreferences> {
  const body: ProfilePreferencesChange = {
    reminder_mails: preferences.reminder_mails,
    ...(preferences.digest_mails === undefined ? {} : { digest_mails: preferences.digest_mails }),
  };
  const { data } = await http.put<unknown>('/api/profile/preferences', body);
  return parseAnswer(profilePreferencesResponse, data).data;
}

/**
 * Saves the mail preferences at once. Saves run one after another (one scope), so that quick
 * toggles reach the server in order; the cached profile takes each saved answer.
 */
export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: savePreferences,
    scope: { id: 'profile-preferences' },
    onSuccess: (saved) => {
      client.setQueryData<Profile>(profileQueryKey, (old) => (old ? { ...old, ...saved } : old));
    },
  });
}
