import type { AuthUser } from '@lms/contract';
import { Box, Menu, Text } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { Link } from '../../shared/Link';

/** The role label of the header menu: roles_ru, defaulting to 'Ученик' (docs/product.md §Shell). */
function roleLabel(user: Pick<AuthUser, 'roles_ru'>): string {
  return user.roles_ru?.trim() || 'Ученик';
}

export interface AccountMenuProps {
  user: AuthUser;
  onLogout: () => void;
  logoutPending: boolean;
  onNavigate?: () => void;
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The avatar button (UserMenu's), which becomes the menu's target. */
  children: ReactElement;
}

/**
 * The account menu itself (Mantine Menu, with Popover and Floating UI): loaded by UserMenu on the
 * first hover, focus or click of the avatar, so the first page does not carry it.
 */
export function AccountMenu({
  user,
  onLogout,
  logoutPending,
  onNavigate,
  opened,
  onChange,
  children,
}: AccountMenuProps) {
  return (
    <Menu position="bottom-end" width={260} shadow="md" radius="md" offset={8} opened={opened} onChange={onChange}>
      <Menu.Target>{children}</Menu.Target>
      <Menu.Dropdown>
        <Box px="sm" pt="xs" pb={8}>
          <Text fw={600} size="sm" lh={1.35} data-testid="user-full-name">
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" mt={2} data-testid="user-role">
            {roleLabel(user)}
          </Text>
        </Box>
        <Menu.Divider />
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />} onClick={onNavigate}>
          Мой профиль
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onLogout} disabled={logoutPending}>
          Выйти из аккаунта
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
