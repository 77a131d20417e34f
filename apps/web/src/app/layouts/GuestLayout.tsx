import { Box } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageLoader } from '../../shared/FullPageLoader';

/** Public pages (sign-in, recovery): a card centred on a light grey page. */
export default function GuestLayout() {
  return (
    <Box
      component="main"
      bg="gray.0"
      mih="100dvh"
      p="md"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    </Box>
  );
}
