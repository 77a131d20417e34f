import { guestUser, type AuthUser } from '@lms/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { browser } from '../lib/browser';
import { http, LOGIN_PATH } from '../lib/http';
import { READ_ONCE, sessionQueryKey } from './queryKeys';

export { guestUser };

/** A user from an answer (check-auth, sign-in); anything but an authenticated user is a guest. */
export function toUser(data: unknown): AuthUser {
  if (typeof data !== 'object' || data === null) return guestUser;
  const user = { ...guestUser, ...(data as Partial<AuthUser>) };
  if (user.authenticated !== true) return guestUser;
  return {
    ...user,
    name: typeof user.name === 'string' ? user.name : '',
    first_name: typeof user.first_name === 'string' ? user.first_name : '',
    last_name: typeof user.last_name === 'string' ? user.last_name : '',
    // Only an explicit true asks for the own password: the server refuses the calls anyway.
    must_change_password: user.must_change_password === true,
    roles_ru: typeof user.roles_ru === 'string' ? user.roles_ru : '',
    permissions: Array.isArray(user.permissions) ? user.permissions : [],
  };
}

/** GET /api/check-auth. Any failure counts as not authenticated (docs/product.md §Session). */
export async function fetchSession(): Promise<AuthUser> {
  try {
    const { data } = await http.get<unknown>('/api/check-auth');
    return toUser(data);
  } catch {
    return guestUser;
  }
}

/** Checked once at start-up; sign-in replaces it, sign-out leaves the page. */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: fetchSession,
  ...READ_ONCE,
  retry: false,
});

export interface Session {
  /** The user; undefined while the check runs. A guest has `authenticated: false`. */
  user: AuthUser | undefined;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** The session state: unknown/loading, then authenticated or not (checked once at startup). */
export function useSession(): Session {
  const { data, isPending } = useQuery(sessionQuery);
  return { user: data, isLoading: isPending, isAuthenticated: data?.authenticated === true };
}

/**
 * Logout (docs/product.md §Session): POST /api/logout, clear nothing locally, then a full-page navigation to
 * /login, or to the company provider's logout when the answer names it (a session opened through the
 * corporate sign-in; the provider sends the browser back to /login); if the call fails, the page reloads.
 */
export async function logout(): Promise<void> {
  let answer: unknown;
  try {
    answer = (await http.post('/api/logout')).data;
  } catch {
    browser.reload();
    return;
  }
  const redirect = typeof answer === 'object' && answer !== null && 'redirect' in answer ? answer.redirect : null;
  browser.navigate(typeof redirect === 'string' && /^https?:\/\//.test(redirect) ? redirect : LOGIN_PATH);
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
