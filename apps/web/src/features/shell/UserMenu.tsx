import type { AuthUser } from '@lms/contract';
import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { initials } from '../../lib/initials';

/** The role label of the header menu: roles_ru, defaulting to 'Ученик' (spec 01 §2.3, §6). */
export function roleLabel(user: Pick<AuthUser, 'roles_ru'>): string {
  return user.roles_ru?.trim() || 'Ученик';
}

interface UserMenuProps {
  user: AuthUser;
  onLogout: () => void;
  logoutPending?: boolean;
  onNavigate?: () => void;
}

/** Avatar with the user's initials; a click opens the account menu, a click outside closes it. */
export function UserMenu({ user, onLogout, logoutPending = false, onNavigate }: UserMenuProps) {
  return (
    <Menu position="bottom-end" width={260} shadow="md" radius="md" offset={8}>
      <Menu.Target>
        <UnstyledButton aria-label="Меню пользователя" p={4} style={{ borderRadius: 999 }}>
          <Group gap={6} wrap="nowrap">
            <Avatar color="brand" variant="filled" radius="xl" size={38} data-testid="user-avatar">
              {initials(user.name) || <IconUser size={18} aria-hidden="true" />}
            </Avatar>
            <IconChevronDown size={16} stroke={1.8} aria-hidden="true" color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
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
