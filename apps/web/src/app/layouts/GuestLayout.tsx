import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullPageLoader } from '../../shared/FullPageLoader';
import { GuestBackdrop } from '../../shared/GuestCard';

/** Public pages (sign-in, recovery): a card centred on a light grey page. */
export default function GuestLayout() {
  return (
    <GuestBackdrop>
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    </GuestBackdrop>
  );
}
