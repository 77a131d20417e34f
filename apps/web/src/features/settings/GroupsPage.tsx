import { Avatar, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
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
  DataTableBody,
  OpenButton,
  rowOpenProps,
  SettingsTable,
  TableCard,
  Toolbar,
  useErrorToast,
  useItemModal,
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
  const modal = useItemModal<StudyGroup>();

  const rows = useMemo(() => (groups.data ?? []).filter((g) => matchesSearch(search, g.name)), [groups.data, search]);

  if (isForbidden(groups.error)) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={T.searchGroups}
        addLabel={T.addGroup}
        onAdd={() => modal.open(null)}
      />
      <TableCard>
        <SettingsTable
          label={T.tabGroups}
          minWidth={340}
          head={
            <>
              <Table.Th>{T.colGroupName}</Table.Th>
              <Table.Th style={{ whiteSpace: 'nowrap' }}>{T.colMembers}</Table.Th>
            </>
          }
        >
          <DataTableBody
            query={groups}
            rows={rows}
            columns={COLUMNS}
            search={search}
            emptyText={T.groupsEmpty}
            renderRow={(group) => <GroupRow key={group.id} group={group} onOpen={() => modal.open(group)} />}
          />
        </SettingsTable>
      </TableCard>
      <GroupModal opened={modal.opened} group={modal.item} onClose={modal.close} />
    </Stack>
  );
}

function GroupRow({ group, onOpen }: { group: StudyGroup; onOpen: () => void }) {
  return (
    <Table.Tr {...rowOpenProps(onOpen)} data-testid="group-row">
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
  );
}
