import { AppShell, Box, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { guestUser, useLogout, useSession } from '../../features/auth/session';
import { Footer } from '../../features/shell/Footer';
import { Header } from '../../features/shell/Header';
import { SideMenu } from '../../features/shell/SideMenu';
import { usePublicConfig } from '../../shared/config';
import { ContentLoader } from '../../shared/FullPageLoader';

const HEADER_HEIGHT = 64;

/** Main layout after sign-in (spec 01 §2.3): header, left side menu, content column, footer. */
export default function MainLayout() {
  const [navOpened, nav] = useDisclosure(false);
  const { user } = useSession();
  const { logout, isPending } = useLogout();
  const companyName = usePublicConfig().data?.company_name;

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding={0}
    >
      <AppShell.Header>
        <Header
          user={user ?? guestUser}
          companyName={companyName}
          onLogout={logout}
          logoutPending={isPending}
          navOpened={navOpened}
          onToggleNav={nav.toggle}
          onNavigate={nav.close}
        />
      </AppShell.Header>

      <AppShell.Navbar aria-label="Главное меню" p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <SideMenu onNavigate={nav.close} />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
        <Box
          flex={1}
          px={{ base: 'md', sm: 'xl' }}
          py={{ base: 'md', sm: 'xl' }}
          mih={`calc(100dvh - ${HEADER_HEIGHT}px - 120px)`}
        >
          <Box maw={1280} mx="auto">
            <Suspense fallback={<ContentLoader />}>
              <Outlet />
            </Suspense>
          </Box>
        </Box>
        <Footer companyName={companyName} />
      </AppShell.Main>
    </AppShell>
  );
}
