import { notifications } from '@mantine/notifications';
import { render, type RenderResult } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/queryClient';

export interface RenderRoutesResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/** Renders route objects in a memory router inside the app's providers (Mantine in test mode). */
export function renderRoutes(routes: RouteObject[], initialPath = '/'): RenderRoutesResult {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const result = render(
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient };
}

/** Renders one element at `path` (other paths show their path as text, to check navigation). */
export function renderAt(element: ReactElement, path = '/', pattern = path): RenderRoutesResult {
  return renderRoutes(
    [
      { path: pattern, element },
      { path: '*', Component: LocationProbe },
    ],
    path,
  );
}

function LocationProbe() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

/**
 * Loads the module of every lazy (code-split) route up front, for a `beforeAll`. Otherwise the
 * first test to open a screen also waits for its module to be transformed and evaluated, which on a
 * busy machine can outlast a `findBy` (1 s) or the test's own time limit.
 */
export async function preloadRoutes(routes: RouteObject[]): Promise<void> {
  const loads: Promise<unknown>[] = [];
  const visit = (list: RouteObject[]) => {
    for (const route of list) {
      if (typeof route.lazy === 'function') loads.push(route.lazy());
      if (route.children) visit(route.children);
    }
  };
  visit(routes);
  await Promise.all(loads);
}

export function resetToasts(): void {
  notifications.clean();
}
