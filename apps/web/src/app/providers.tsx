import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { createQueryClient } from './queryClient';
import { cssVariablesResolver, theme } from './theme';

interface ProvidersProps {
  children: ReactNode;
  /** A ready client (tests); otherwise one is created for the app's lifetime. */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

const Toasts = lazy(() => import('./Toasts'));

/**
 * The toast container and its animations are loaded with the first toast, so the first screen does
 * not wait for them; toasts shown before it arrives wait in the store. Tests mount it at once.
 */
function ToastsWhenNeeded({ eager }: { eager: boolean }) {
  const { notifications, queue } = useNotifications();
  const [mounted, setMounted] = useState(eager);
  if (!mounted && (notifications.length > 0 || queue.length > 0)) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}

export function Providers({ children, queryClient, env = 'default' }: ProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      <ToastsWhenNeeded eager={env === 'test'} />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
