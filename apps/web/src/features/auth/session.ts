import type { AuthUser, LoginRequest, LoginResponse } from '@lms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { http, LOGIN_PATH } from '../../app/http';
import { browser } from '../../lib/browser';
import { routePath, useZiggy } from '../../shared/ziggy';

export const sessionQueryKey = ['check-auth'] as const;

export const guestUser: AuthUser = {
  authenticated: false,
  id: null,
  name: '',
  email: '',
  role: null,
  roles_ru: '',
  permissions: [],
};

function toUser(data: unknown): AuthUser {
  if (typeof data !== 'object' || data === null) return guestUser;
  const user = { ...guestUser, ...(data as Partial<AuthUser>) };
  if (user.authenticated !== true) return guestUser;
  return {
    ...user,
    name: typeof user.name === 'string' ? user.name : '',
    roles_ru: typeof user.roles_ru === 'string' ? user.roles_ru : '',
    permissions: Array.isArray(user.permissions) ? user.permissions : [],
  };
}

/** GET /api/check-auth. Any failure counts as not authenticated (spec 01 §4). */
export async function fetchSession(): Promise<AuthUser> {
  try {
    const { data } = await http.get<unknown>('/api/check-auth');
    return toUser(data);
  } catch {
    return guestUser;
  }
}

export interface Session {
  /** The user; undefined while the check runs. A guest has `authenticated: false`. */
  user: AuthUser | undefined;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** The session state: unknown/loading, then authenticated or not (checked once at startup). */
export function useSession(): Session {
  const { data, isPending } = useQuery({
    queryKey: sessionQueryKey,
    queryFn: fetchSession,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return { user: data, isLoading: isPending, isAuthenticated: data?.authenticated === true };
}

/**
 * POST to the sign-in route of the route table (key 'login'); '/login' while the table is not
 * there. Success stores the returned user as the session.
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
 * Logout (spec 01 §4): POST /api/logout, clear nothing locally, then a full-page navigation to
 * /login; if the call fails, the page reloads.
 */
export async function logout(): Promise<void> {
  try {
    await http.post('/api/logout');
  } catch {
    browser.reload();
    return;
  }
  browser.navigate(LOGIN_PATH);
}

export function useLogout(): { logout: () => void; isPending: boolean } {
  const [isPending, setPending] = useState(false);
  const run = useCallback(() => {
    if (isPending) return;
    setPending(true);
    void logout();
  }, [isPending]);
  return { logout: run, isPending };
}
