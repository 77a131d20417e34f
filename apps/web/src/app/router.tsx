import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { forgetHomeLists, prefetchHomeLists } from '../features/home/queries';
import { sessionQuery, useSession } from '../shared/session';
import { FullPageLoader } from '../shared/FullPageLoader';
import { useZiggy, ziggyQuery } from '../shared/ziggy';
import { RedirectIfAuthenticated, RequireAuth } from './guards';
import { RouteError } from './RouteError';

type LazyModule = Promise<{ default: ComponentType }>;

/** A route-level code-split screen: the module's default export becomes the route component. */
function screen(load: () => LazyModule): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/** Starts the two start-up calls at once: the route table and the session check. */
function Root() {
  useZiggy();
  useSession();
  return <Outlet />;
}

/** Protected screens of the main layout (docs/product.md §Routes). Later issues replace the placeholders. */
const protectedScreens: RouteObject[] = [
  { index: true, ...screen(() => import('../features/home/HomePage')) },
  { path: 'management', ...screen(() => import('../features/catalogue/CataloguePage')) },
  { path: 'management/constructor/:courseId', ...screen(() => import('../features/constructor/ConstructorPage')) },
  {
    path: 'management/constructor/:courseId/settings',
    ...screen(() => import('../features/constructor/CourseSettingsPage')),
  },
  {
    path: 'management/constructor/:courseId/test/:testId',
    ...screen(() => import('../features/constructor/TestEditorPage')),
  },
  {
    path: 'management/constructor/:courseId/:lessonId',
    ...screen(() => import('../features/constructor/ConstructorPage')),
  },
  { path: 'courses/:courseId', ...screen(() => import('../features/learning/CoursePage')) },
  { path: 'courses/:courseId/lesson/:lessonId', ...screen(() => import('../features/learning/LessonPage')) },
  { path: 'courses/:courseId/test/:testId', ...screen(() => import('../features/learning/TestPage')) },
  {
    path: 'courses/:courseId/test/:testId/:attemptId',
    ...screen(() => import('../features/learning/TestResultPage')),
  },
  {
    path: 'courses/:courseId/test/:testId/:attemptId/result',
    ...screen(() => import('../features/learning/AnswersReviewPage')),
  },
  { path: 'settings', ...screen(() => import('../features/settings/UsersPage')) },
  { path: 'settings/departments', ...screen(() => import('../features/settings/DepartmentsPage')) },
  { path: 'settings/groups', ...screen(() => import('../features/settings/GroupsPage')) },
  { path: 'settings/sign-in', ...screen(() => import('../features/settings/SignInPage')) },
  { path: 'settings/audit', ...screen(() => import('../features/settings/AuditPage')) },
  { path: 'settings/mail-log', ...screen(() => import('../features/settings/MailLogPage')) },
  { path: 'settings/certificates', ...screen(() => import('../features/settings/CertificatesPage')) },
  { path: 'settings/import', ...screen(() => import('../features/settings/ImportPage')) },
  { path: 'profile', ...screen(() => import('../features/profile/ProfilePage')) },
  { path: 'analytics', ...screen(() => import('../features/analytics/AnalyticsPage')) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      {
        ...screen(() => import('./layouts/GuestLayout')),
        children: [
          {
            element: <RedirectIfAuthenticated />,
            children: [{ path: 'login', ...screen(() => import('../features/auth/LoginPage')) }],
          },
          { path: 'recovery', ...screen(() => import('../features/recovery/RecoveryRequestPage')) },
          { path: 'recovery/confirm', ...screen(() => import('../features/recovery/RecoveryConfirmPage')) },
          // Public whether signed in or not: whoever holds a certificate's number checks it here.
          { path: 'verify/:number', ...screen(() => import('../features/verify/VerifyPage')) },
        ],
      },
      {
        element: <RequireAuth />,
        children: [{ ...screen(() => import('./layouts/MainLayout')), children: protectedScreens }],
      },
      { path: '*', ...screen(() => import('../features/placeholder/NotFoundPage')) },
    ],
  },
];

/**
 * The calls of the first screen, started before its code has loaded (the router renders nothing
 * until then): the route table and the session check, and at '/' the home page's two lists at the
 * same time (dropped again when the session is a guest's). Screens read them from the cache.
 */
export function prefetchFirstScreen(queryClient: QueryClient, path: string): void {
  void queryClient.prefetchQuery(ziggyQuery);
  // A failure is left to the guards, which show the session's own state.
  // A user who must first replace a mailed password gets no lists either (the server refuses them).
  const signedIn = queryClient.fetchQuery(sessionQuery).then(
    (user) => user.authenticated && !user.must_change_password,
    () => false,
  );
  if (path !== '/') return;
  prefetchHomeLists(queryClient);
  void signedIn.then((yes) => {
    if (!yes) forgetHomeLists(queryClient);
  });
}

/** The browser router; creating it starts loading the code of the current address's screens. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
