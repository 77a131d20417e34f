import { initials, type AuthUser } from '@lms/contract';
import { Group, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconUser } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { AccountMenuProps } from './AccountMenu';
import classes from './UserMenu.module.css';

interface UserMenuProps {
  user: AuthUser;
  onLogout: () => void;
  logoutPending?: boolean;
  onNavigate?: () => void;
}

let accountMenu: Promise<ComponentType<AccountMenuProps>> | null = null;

/** The menu's code (Mantine Menu, Popover, Floating UI), fetched once; a failed fetch is retried. */
function loadAccountMenu(): Promise<ComponentType<AccountMenuProps>> {
  accountMenu ??= import('./AccountMenu').then(
    (m) => m.AccountMenu,
    (error: unknown) => {
      accountMenu = null;
      throw error;
    },
  );
  return accountMenu;
}

/**
 * Avatar with the user's initials; a click opens the account menu, a click outside closes it.
 * The menu's code loads on the first hover, focus or click of the avatar (the first page does not
 * need it); a click made before it has arrived opens the menu when it does.
 */
export function UserMenu({ user, logoutPending = false, ...actions }: UserMenuProps) {
  const [Menu, setMenu] = useState<ComponentType<AccountMenuProps> | null>(null);
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  /** A click made before the menu's code arrived: it opens the menu once the menu is there. */
  const openWhenLoaded = useRef(false);

  const load = () => {
    if (Menu) return;
    loadAccountMenu().then(
      (component) => {
        // The button is rendered anew inside the menu: keep the keyboard focus on it.
        refocus.current = document.activeElement === button.current;
        setMenu(() => component);
      },
      () => {
        openWhenLoaded.current = false;
      },
    );
  };

  // Once the menu is mounted (closed), as a click on it would: the focus on the button, then open.
  useEffect(() => {
    if (!Menu) return;
    if (refocus.current) button.current?.focus();
    if (openWhenLoaded.current) setOpened(true);
    refocus.current = false;
    openWhenLoaded.current = false;
  }, [Menu]);

  const avatar = (
    <UnstyledButton
      ref={button}
      aria-label="Меню пользователя"
      p={4}
      style={{ borderRadius: 999 }}
      {...(Menu
        ? {}
        : {
            'aria-haspopup': 'menu' as const,
            'aria-expanded': false,
            onPointerEnter: load,
            onFocus: load,
            onClick: () => {
              openWhenLoaded.current = true;
              load();
            },
          })}
    >
      <Group gap={6} wrap="nowrap">
        <span className={classes.avatar} data-testid="user-avatar">
          <span className={classes.initials}>
            {initials(user, user.name) || <IconUser size={18} aria-hidden="true" />}
          </span>
        </span>
        <IconChevronDown size={16} stroke={1.8} aria-hidden="true" color="var(--mantine-color-gray-6)" />
      </Group>
    </UnstyledButton>
  );

  if (!Menu) return avatar;
  return (
    <Menu user={user} {...actions} logoutPending={logoutPending} opened={opened} onChange={setOpened}>
      {avatar}
    </Menu>
  );
}
