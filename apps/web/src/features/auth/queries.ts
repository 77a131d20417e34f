import type { AuthUser, LoginRequest, LoginResponse } from '@lms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, LOGIN_PATH } from '../../lib/http';
import { sessionQueryKey, toUser } from '../../shared/session';
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
