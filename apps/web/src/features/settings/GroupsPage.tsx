import { Avatar, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { initials } from '../../lib/initials';
import { isForbidden, useGroups, type StudyGroup } from './api';
import { GroupModal } from './GroupModal';
import { matchesSearch } from './logic';
import { SafeHtml } from './SafeHtml';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import {
  AccessDenied,
  EmptyState,
  ErrorState,
  LoadingRows,
  MessageRow,
  OpenButton,
  rowOpenProps,
  TableCard,
  Toolbar,
  useErrorToast,
} from './ui';

const COLUMNS = 2;
const AVATAR_STYLES = { placeholder: { fontSize: 10 } };

/** /settings/groups: the study groups tab (spec 03 §2.2). */
export default function GroupsPage() {
  return (
    <SettingsFrame>
      <GroupsTab />
    </SettingsFrame>
  );
}

function GroupsTab() {
  const groups = useGroups();
  useErrorToast(groups, T.loadError, 'settings-load-error', !isForbidden(groups.error));
  const [search, setSearch] = useState('');
  const [opened, modal] = useDisclosure(false);
  const [editing, setEditing] = useState<StudyGroup | null>(null);

  const rows = useMemo(() => (groups.data ?? []).filter((g) => matchesSearch(search, g.name)), [groups.data, search]);

  if (isForbidden(groups.error)) return <AccessDenied />;

  const open = (group: StudyGroup | null) => {
    setEditing(group);
    modal.open();
  };

  let body;
  if (groups.isPending) body = <LoadingRows columns={COLUMNS} />;
  else if (groups.isError)
    body = (
      <MessageRow columns={COLUMNS}>
        <ErrorState onRetry={() => void groups.refetch()} />
      </MessageRow>
    );
  else if (rows.length === 0)
    body = (
      <MessageRow columns={COLUMNS}>
        <EmptyState text={search.trim() ? T.nothingFound : T.groupsEmpty} />
      </MessageRow>
    );
  else
    body = rows.map((group) => (
      <Table.Tr key={group.id} {...rowOpenProps(() => open(group))} data-testid="group-row">
        <Table.Td>
          <OpenButton>
            <Text size="sm" fw={600}>
              <SafeHtml html={group.name} />
            </Text>
          </OpenButton>
        </Table.Td>
        <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
          <Group gap="sm" wrap="nowrap">
            <Badge
              variant="light"
              radius="sm"
              size="lg"
              miw={36}
              style={{ flexShrink: 0 }}
              aria-label={`${T.colMembers}: ${group.users.length}`}
            >
              {group.users.length}
            </Badge>
            {group.users.length > 0 ? (
              <Tooltip.Group openDelay={200} closeDelay={200}>
                <Group gap={4} wrap="nowrap" visibleFrom="xs" aria-hidden="true">
                  {group.users.slice(0, 3).map((u) => (
                    <Tooltip key={u.id} label={u.name} withArrow position="top">
                      <Avatar name={u.name} color="initials" radius="xl" size={28} styles={AVATAR_STYLES}>
                        {initials(u.name)}
                      </Avatar>
                    </Tooltip>
                  ))}
                  {group.users.length > 3 ? (
                    <Avatar radius="xl" size={28} styles={AVATAR_STYLES}>
                      +{group.users.length - 3}
                    </Avatar>
                  ) : null}
                </Group>
              </Tooltip.Group>
            ) : null}
          </Group>
        </Table.Td>
      </Table.Tr>
    ));

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={T.searchGroups}
        addLabel={T.addGroup}
        onAdd={() => open(null)}
      />
      <TableCard>
        <Table.ScrollContainer minWidth={340} type="native">
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label={T.tabGroups}>
            <Table.Thead bg="gray.0">
              <Table.Tr>
                <Table.Th>{T.colGroupName}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{T.colMembers}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{body}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </TableCard>
      <GroupModal opened={opened} group={editing} onClose={modal.close} />
    </Stack>
  );
}
