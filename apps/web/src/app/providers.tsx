import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { TOAST_DURATION } from '../shared/toast';
import { createQueryClient } from './queryClient';
import { cssVariablesResolver, theme } from './theme';

interface ProvidersProps {
  children: ReactNode;
  /** A ready client (tests); otherwise one is created for the app's lifetime. */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

export function Providers({ children, queryClient, env = 'default' }: ProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      <Notifications position="top-right" autoClose={TOAST_DURATION} zIndex={250} className="app-notifications" />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
