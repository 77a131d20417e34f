import { Navigate, Outlet } from 'react-router';
import { useSession } from '../shared/session';
import { FullPageLoader } from '../shared/FullPageLoader';

/** Protected routes: a spinner while the session loads, /login when not authenticated. */
export function RequireAuth() {
  const { isLoading, isAuthenticated } = useSession();
  if (isLoading) return <FullPageLoader />;
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** /login: a loader while the check runs; an authenticated user is sent to /. */
export function RedirectIfAuthenticated() {
  const { isLoading, isAuthenticated } = useSession();
  if (isLoading) return <FullPageLoader />;
  if (isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
