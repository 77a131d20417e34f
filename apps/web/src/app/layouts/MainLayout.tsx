import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { guestUser, useLogout, useSession } from '../../shared/session';
import { Footer } from '../../features/shell/Footer';
import { Header } from '../../features/shell/Header';
import { SideMenu } from '../../features/shell/SideMenu';
import { usePublicConfig } from '../../shared/config';
import { ContentLoader } from '../../shared/FullPageLoader';
import classes from './MainLayout.module.css';

/**
 * Main layout after sign-in (docs/product.md §Shell): header, left side menu, content column, footer.
 * Plain elements and a CSS module rather than Mantine's AppShell, which the first screen would
 * otherwise wait for (with its scroll-lock dependency).
 */
export default function MainLayout() {
  const [navOpened, nav] = useDisclosure(false);
  const { user } = useSession();
  const { logout, isPending } = useLogout();
  const companyName = usePublicConfig().data?.company_name;

  return (
    <>
      <header className={classes.header}>
        <Header
          user={user ?? guestUser}
          companyName={companyName}
          onLogout={logout}
          logoutPending={isPending}
          navOpened={navOpened}
          onToggleNav={nav.toggle}
          onNavigate={nav.close}
        />
      </header>

      <nav className={classes.navbar} aria-label="Главное меню" data-opened={navOpened || undefined}>
        <SideMenu onNavigate={nav.close} />
      </nav>

      <main className={classes.main}>
        <div className={classes.content}>
          <div className={classes.column}>
            <Suspense fallback={<ContentLoader />}>
              <Outlet />
            </Suspense>
          </div>
        </div>
        <Footer companyName={companyName} />
      </main>
    </>
  );
}
