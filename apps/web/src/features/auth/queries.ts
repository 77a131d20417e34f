import {
  successResponse,
  type AuthUser,
  type LoginRequest,
  type LoginResponse,
  type SetPasswordRequest,
} from '@lms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { parseAnswer } from '../../lib/answer';
import { http, LOGIN_PATH } from '../../lib/http';
import { sessionQueryKey } from '../../shared/queryKeys';
import { toUser } from '../../shared/session';
import { routePath, useZiggy } from '../../shared/ziggy';

/**
 * Sign-in: POST to the sign-in route of the route table (key 'login'); '/login' while the table is
 * not there. Success stores the returned user as the session, so the guards let the user in.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  const ziggy = useZiggy();
  return useMutation({
    mutationFn: async (body: LoginRequest) => {
      const path = routePath(ziggy, 'login') ?? LOGIN_PATH;
      return (await http.post<LoginResponse>(path, body)).data;
    },
    onSuccess: (data) => {
      queryClient.setQueryData<AuthUser>(sessionQueryKey, toUser(data.user));
    },
  });
}

/**
 * POST /api/profile/set-password: the own password instead of a mailed one. On success the session
 * no longer asks for it, and every other answer is read afresh (those asked meanwhile were refused).
 */
export function useSetOwnPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SetPasswordRequest) => {
      const { data } = await http.post<unknown>('/api/profile/set-password', body);
      return parseAnswer(successResponse, data).result.message;
    },
    onSuccess: () => {
      queryClient.setQueryData<AuthUser>(sessionQueryKey, (user) =>
        user ? { ...user, must_change_password: false } : user,
      );
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    },
  });
}
