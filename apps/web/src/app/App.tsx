import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers';
import type { AppRouter } from './router';

interface AppProps {
  queryClient: QueryClient;
  router: AppRouter;
}

/** The app: created in main.tsx, so that its first calls and screen start before the first render. */
export function App({ queryClient, router }: AppProps) {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
