import { initials } from '@lms/contract';
import { Avatar, Button, Center, Group, Skeleton, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconCloudDown, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { errorStatus } from '../../lib/errors';
import { formatRelativeTime } from '../../lib/relativeTime';
import { ExportMenu } from '../../shared/ExportMenu';
import { Link } from '../../shared/Link';
import { AddUsersModal } from './AddUsersModal';
import { DirectorySyncButton } from './DirectorySyncButton';
import { EditUserModal } from './EditUserModal';
import { IMPORT_TEXTS } from './importTexts';
import { USERS_PER_PAGE, useUsersPage, type AdminUser } from './queries';
import { SafeHtml } from './SafeHtml';
import { PagedTableCard, PageNav, usePage } from './Paging';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import {
  AccessDenied,
  DataTableBody,
  EmptyState,
  ErrorState,
  OpenButton,
  rowOpenProps,
  SettingsTable,
  Toolbar,
  useErrorToast,
  useItemModal,
} from './ui';

const COLUMNS = 5;
const fullDate = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short' });

/** The employees export (issue 16): every page of the tab's search, in its order. */
const EXPORT_PATH = '/api/admin/users/export';

/** The search is sent this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** /settings: the employees tab (docs/product.md §Settings). */
export default function UsersPage() {
  return (
    <SettingsFrame>
      <UsersTab />
    </SettingsFrame>
  );
}

function UsersTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // the page belongs to the search it was chosen for: a new search starts again at page 1
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === debounced ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search: debounced, page: next });

  const users = useUsersPage({ page, per_page: USERS_PER_PAGE, search: debounced });
  const forbidden = errorStatus(users.error) === 403;
  useErrorToast(users, T.loadError, 'settings-load-error', !forbidden);
  // a page left empty (its last employees deleted elsewhere): go to the last one there is
  const paged = usePage(users, page, USERS_PER_PAGE, setPage);
  const { rows } = paged;
  // the rows shown are those of the search they were found for (the next one may still load)
  const shownSearch = users.data?.search ?? debounced;

  const [addOpened, add] = useDisclosure(false);
  const edit = useItemModal<AdminUser>();
  const phone = useMediaQuery('(max-width: 47.99em)');

  if (forbidden) return <AccessDenied />;

  const table = (
    <SettingsTable
      label={T.tabUsers}
      minWidth={760}
      head={
        <>
          <Table.Th>{T.colName}</Table.Th>
          <Table.Th>{T.colDepartment}</Table.Th>
          <Table.Th>{T.colRole}</Table.Th>
          <Table.Th>{T.colEmail}</Table.Th>
          <Table.Th>{T.colActivity}</Table.Th>
        </>
      }
    >
      <DataTableBody
        query={users}
        rows={rows}
        columns={COLUMNS}
        search={shownSearch}
        emptyText={T.usersEmpty}
        renderRow={(user) => <UserRow key={user.id} user={user} onOpen={() => edit.open(user)} />}
      />
    </SettingsTable>
  );

  // phones get a list of cards instead of a wide table
  const cards = users.isPending ? (
    <Stack gap={0} p="md" aria-busy="true">
      {[0, 1, 2, 3].map((n) => (
        <Skeleton key={n} h={56} my={6} radius="md" />
      ))}
    </Stack>
  ) : users.isError ? (
    <Center py={40}>
      <ErrorState onRetry={() => void users.refetch()} />
    </Center>
  ) : rows.length === 0 ? (
    <Center py={40}>
      <EmptyState text={shownSearch.trim() ? T.nothingFound : T.usersEmpty} />
    </Center>
  ) : (
    <Stack gap={0} component="ul" aria-label={T.tabUsers} m={0} p={0} style={{ listStyle: 'none' }}>
      {rows.map((user) => (
        <UserCard key={user.id} user={user} onOpen={() => edit.open(user)} />
      ))}
    </Stack>
  );

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={T.searchUsers}
        addLabel={T.addUsers}
        onAdd={add.open}
        actions={
          <>
            <DirectorySyncButton />
            <Button
              component={Link}
              to="/settings/import"
              variant="default"
              flex={{ base: '1 1 auto', xs: 'none' }}
              leftSection={<IconFileImport size={18} aria-hidden="true" />}
            >
              {IMPORT_TEXTS.button}
            </Button>
            <ExportMenu path={EXPORT_PATH} filters={{ search: debounced }} grow />
          </>
        }
      />
      <PagedTableCard loading={users.isPlaceholderData}>{phone ? cards : table}</PagedTableCard>
      <PageNav label={T.usersPages} shown={T.usersShown} state={paged} page={page} onChange={setPage} phone={phone} />

      <AddUsersModal opened={addOpened} onClose={add.close} />
      <EditUserModal opened={edit.opened} user={edit.item} onClose={edit.close} />
    </Stack>
  );
}

function Activity({ value }: { value: string | null }) {
  const text = formatRelativeTime(value);
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    return (
      <Text size="sm" c="dimmed" span>
        {text}
      </Text>
    );
  }
  return (
    <Tooltip label={fullDate.format(date)} withArrow openDelay={200} closeDelay={200} position="top">
      <Text size="sm" c="dimmed" span>
        {text}
      </Text>
    </Tooltip>
  );
}

function UserAvatar({ user }: { user: AdminUser }) {
  return (
    <Avatar name={user.name} color="initials" radius="xl" size={36}>
      {initials(user, user.name)}
    </Avatar>
  );
}

function UserCard({ user, onOpen }: { user: AdminUser; onOpen: () => void }) {
  return (
    <li style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }} data-testid="user-card">
      <UnstyledButton onClick={onOpen} w="100%" px="md" py="sm" style={{ display: 'block' }}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <UserAvatar user={user} />
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} truncate>
                  <SafeHtml html={user.name} />
                </Text>
                {user.from_directory ? <FromDirectory /> : null}
              </Group>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatRelativeTime(user.last_activity)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" truncate>
              <SafeHtml html={user.email} />
            </Text>
            <Text size="xs" truncate>
              <SafeHtml html={user.department?.name ?? T.noDepartment} /> · <SafeHtml html={user.roles.name} />
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
    </li>
  );
}

/** The mark of a person the directory sync keeps. */
function FromDirectory() {
  return (
    <Tooltip label={T.fromDirectoryMark} withArrow>
      <IconCloudDown size={16} color="var(--mantine-color-blue-7)" aria-label={T.fromDirectoryMark} role="img" />
    </Tooltip>
  );
}

function UserRow({ user, onOpen }: { user: AdminUser; onOpen: () => void }) {
  return (
    <Table.Tr {...rowOpenProps(onOpen)} data-testid="user-row">
      <Table.Td miw={240}>
        <OpenButton>
          <Group gap="sm" wrap="nowrap">
            <UserAvatar user={user} />
            <div style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600} lineClamp={1}>
                  <SafeHtml html={user.name} />
                </Text>
                {user.from_directory ? <FromDirectory /> : null}
              </Group>
              {user.position ? (
                <Text size="xs" c="dimmed" lineClamp={1}>
                  <SafeHtml html={user.position} />
                </Text>
              ) : null}
            </div>
          </Group>
        </OpenButton>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={user.department ? undefined : 'dimmed'}>
          <SafeHtml html={user.department?.name ?? T.noDepartment} />
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          <SafeHtml html={user.roles.name} />
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <SafeHtml html={user.email} />
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Activity value={user.last_activity} />
      </Table.Td>
    </Table.Tr>
  );
}
