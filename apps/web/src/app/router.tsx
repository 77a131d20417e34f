import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { useSession } from '../features/auth/session';
import { FullPageLoader } from '../shared/FullPageLoader';
import { useZiggy } from '../shared/ziggy';
import { RedirectIfAuthenticated, RequireAuth } from './guards';
import { RouteError } from './RouteError';

type LazyModule = Promise<{ default: ComponentType }>;

/** A route-level code-split screen: the module's default export becomes the route component. */
function screen(load: () => LazyModule): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

const placeholder = () => import('../features/placeholder/PlaceholderPage');

/** Starts the two start-up calls at once: the route table and the session check. */
function Root() {
  useZiggy();
  useSession();
  return <Outlet />;
}

/** Protected screens of the main layout (spec 01 §2.1). Later issues replace the placeholders. */
const protectedScreens: RouteObject[] = [
  { index: true, ...screen(() => import('../features/home/HomePage')) },
  { path: 'management', ...screen(() => import('../features/catalogue/CataloguePage')) },
  { path: 'management/constructor/:courseId', ...screen(placeholder) },
  { path: 'management/constructor/:courseId/settings', ...screen(placeholder) },
  { path: 'management/constructor/:courseId/test/:testId', ...screen(placeholder) },
  { path: 'management/constructor/:courseId/:lessonId', ...screen(placeholder) },
  { path: 'courses/:courseId', ...screen(placeholder) },
  { path: 'courses/:courseId/lesson/:lessonId', ...screen(placeholder) },
  { path: 'courses/:courseId/test/:testId', ...screen(placeholder) },
  { path: 'courses/:courseId/test/:testId/:attemptId', ...screen(placeholder) },
  { path: 'courses/:courseId/test/:testId/:attemptId/result', ...screen(placeholder) },
  { path: 'settings', ...screen(() => import('../features/settings/UsersPage')) },
  { path: 'settings/departments', ...screen(() => import('../features/settings/DepartmentsPage')) },
  { path: 'settings/groups', ...screen(() => import('../features/settings/GroupsPage')) },
  { path: 'profile', ...screen(placeholder) },
  { path: 'analytics', ...screen(placeholder) },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
