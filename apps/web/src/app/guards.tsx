import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../shared/session';
import { FullPageLoader } from '../shared/FullPageLoader';
import { GuestBackdrop } from '../shared/GuestCard';

const OwnPasswordPage = lazy(() => import('../features/auth/OwnPasswordPage'));

/**
 * Protected routes: a spinner while the session loads, /login when not authenticated. A user who
 * signed in with a password an administrator mailed gets the own-password screen instead of any of
 * them (the server refuses their calls until then); the address stays, so the page opens after.
 * The sign-in page is told where the user was going (state `from`): the corporate sign-in comes back there.
 */
export function RequireAuth() {
  const { isLoading, isAuthenticated, user } = useSession();
  const { pathname, search, hash } = useLocation();
  if (isLoading) return <FullPageLoader />;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: `${pathname}${search}${hash}` }} />;
  if (user?.must_change_password) {
    return (
      <GuestBackdrop>
        <Suspense fallback={<FullPageLoader />}>
          <OwnPasswordPage />
        </Suspense>
      </GuestBackdrop>
    );
  }
  return <Outlet />;
}

/** /login: a loader while the check runs; an authenticated user is sent to /. */
export function RedirectIfAuthenticated() {
  const { isLoading, isAuthenticated } = useSession();
  if (isLoading) return <FullPageLoader />;
  if (isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
