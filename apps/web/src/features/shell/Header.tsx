import type { AuthUser } from '@lms/contract';
import { Anchor, Burger, Group } from '@mantine/core';
import { Link } from '../../shared/Link';
import { Logo } from '../../shared/Logo';
import { UserMenu } from './UserMenu';

interface HeaderProps {
  user: AuthUser;
  companyName: string | undefined;
  onLogout: () => void;
  logoutPending?: boolean;
  /** Side-menu state on narrow screens (the burger); omitted in tests. */
  navOpened?: boolean;
  onToggleNav?: () => void;
  onNavigate?: () => void;
}

/** Header of the main layout: burger (phones), logo linking to /, the user's avatar menu. */
export function Header({
  user,
  companyName,
  onLogout,
  logoutPending,
  navOpened = false,
  onToggleNav,
  onNavigate,
}: HeaderProps) {
  return (
    <Group h="100%" px={{ base: 'sm', sm: 'lg' }} justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {onToggleNav ? (
          <Burger
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label={navOpened ? 'Закрыть меню' : 'Открыть меню'}
          />
        ) : null}
        <Anchor component={Link} to="/" underline="never" aria-label="На главную" onClick={onNavigate}>
          <Logo name={companyName} nameVisibleFrom="xs" />
        </Anchor>
      </Group>
      <UserMenu user={user} onLogout={onLogout} logoutPending={logoutPending} onNavigate={onNavigate} />
    </Group>
  );
}
