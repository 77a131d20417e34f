import { Badge, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { isForbidden, useDepartments, type Department } from './api';
import { DepartmentModal } from './DepartmentModal';
import { matchesSearch, sortDepartments } from './logic';
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

/** /settings/departments: the departments tab (spec 03 §2.2). */
export default function DepartmentsPage() {
  return (
    <SettingsFrame>
      <DepartmentsTab />
    </SettingsFrame>
  );
}

function DepartmentsTab() {
  const departments = useDepartments();
  useErrorToast(departments, T.loadError, 'settings-load-error', !isForbidden(departments.error));
  const [search, setSearch] = useState('');
  const [opened, modal] = useDisclosure(false);
  const [editing, setEditing] = useState<Department | null>(null);

  const rows = useMemo(
    () => sortDepartments(departments.data ?? []).filter((d) => matchesSearch(search, d.name)),
    [departments.data, search],
  );

  if (isForbidden(departments.error)) return <AccessDenied />;

  const open = (department: Department | null) => {
    setEditing(department);
    modal.open();
  };

  let body;
  if (departments.isPending) body = <LoadingRows columns={COLUMNS} />;
  else if (departments.isError)
    body = (
      <MessageRow columns={COLUMNS}>
        <ErrorState onRetry={() => void departments.refetch()} />
      </MessageRow>
    );
  else if (rows.length === 0)
    body = (
      <MessageRow columns={COLUMNS}>
        <EmptyState text={search.trim() ? T.nothingFound : T.departmentsEmpty} />
      </MessageRow>
    );
  else
    body = rows.map((department) => (
      <Table.Tr key={department.id} {...rowOpenProps(() => open(department))} data-testid="department-row">
        <Table.Td>
          <OpenButton>
            <Group gap="sm" wrap="nowrap">
              <ThemeIcon variant="light" radius="xl" size={36} visibleFrom="xs">
                <IconBuildingCommunity size={18} aria-hidden="true" />
              </ThemeIcon>
              <Text size="sm" fw={600}>
                <SafeHtml html={department.name} />
              </Text>
            </Group>
          </OpenButton>
        </Table.Td>
        <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
          {department.sort_order === null ? (
            <Text size="sm" c="dimmed">
              —
            </Text>
          ) : (
            <Badge variant="light" color="gray" radius="sm" size="lg" fw={600}>
              {department.sort_order}
            </Badge>
          )}
        </Table.Td>
      </Table.Tr>
    ));

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={T.searchDepartments}
        addLabel={T.addDepartment}
        onAdd={() => open(null)}
      />
      <TableCard>
        <Table.ScrollContainer minWidth={340} type="native">
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label={T.tabDepartments}>
            <Table.Thead bg="gray.0">
              <Table.Tr>
                <Table.Th>{T.colDepartmentName}</Table.Th>
                <Table.Th>{T.colSortOrder}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{body}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </TableCard>
      <DepartmentModal opened={opened} department={editing} onClose={modal.close} />
    </Stack>
  );
}
