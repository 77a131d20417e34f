import { initials, type StudyGroupRequest } from '@lms/contract';
import { Avatar, Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { CrudTab, type CrudEntity, type CrudFieldsProps } from './CrudTab';
import { matchesSearch } from './logic';
import { MemberPicker, type MemberChoice } from './MemberPicker';
import { groups, useUsers, type StudyGroup } from './queries';
import { SafeHtml } from './SafeHtml';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import { OpenButton, rowOpenProps, useErrorToast } from './ui';

const AVATAR_STYLES = { placeholder: { fontSize: 10 } };

function GroupRow({ item: group, onOpen }: { item: StudyGroup; onOpen: () => void }) {
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
                      {initials(u, u.name)}
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

/** The name, then the members: every user, ticked when in the group. */
function GroupFields({ item: group, name, value, onChange, busy }: CrudFieldsProps<StudyGroup, number[]>) {
  const users = useUsers();
  useErrorToast(users, T.dropdownLoadError, 'settings-members-error');
  // every user, plus current members the list does not hold (so none is dropped silently)
  const choices = useMemo<MemberChoice[]>(() => {
    const list: MemberChoice[] = (users.data ?? []).map((u) => ({ id: u.id, name: u.name, email: u.email }));
    const ids = new Set(list.map((u) => u.id));
    for (const member of group?.users ?? []) if (!ids.has(member.id)) list.push(member);
    return list;
  }, [users.data, group]);
  return (
    <>
      {name}
      <MemberPicker users={choices} value={value} onChange={onChange} loading={users.isPending} disabled={busy} />
    </>
  );
}

const groupEntity: CrudEntity<StudyGroup, StudyGroupRequest, number[]> = {
  resource: groups,
  texts: {
    search: T.searchGroups,
    add: T.addGroup,
    table: T.tabGroups,
    empty: T.groupsEmpty,
    addTitle: T.addGroupTitle,
    editTitle: T.editGroupTitle,
    nameLabel: T.groupName,
    needName: T.needGroupName,
    added: T.groupAdded,
    updated: T.groupUpdated,
    deleted: T.groupDeleted,
    addError: T.addGroupError,
    updateError: T.updateGroupError,
    deleteError: T.deleteGroupError,
    confirmDeleteTitle: T.confirmDeleteGroupTitle,
    confirmDelete: T.confirmDeleteGroup,
  },
  head: (
    <>
      <Table.Th>{T.colGroupName}</Table.Th>
      <Table.Th style={{ whiteSpace: 'nowrap' }}>{T.colMembers}</Table.Th>
    </>
  ),
  columns: 2,
  rows: (items, search) => items.filter((g) => matchesSearch(search, g.name)),
  Row: GroupRow,
  skeleton: [58, 200],
  initial: (group) => group?.users.map((u) => u.id) ?? [],
  Fields: GroupFields,
  body: (name, courseIds, memberIds) => ({ name, user_ids: memberIds, course_ids: courseIds }),
};

/** /settings/groups: the study groups tab (docs/product.md §Settings). */
export default function GroupsPage() {
  return (
    <SettingsFrame>
      <CrudTab entity={groupEntity} />
    </SettingsFrame>
  );
}
