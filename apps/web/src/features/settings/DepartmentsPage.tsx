import { Badge, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
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
  const modal = useItemModal<Department>();

  const rows = useMemo(
    () => sortDepartments(departments.data ?? []).filter((d) => matchesSearch(search, d.name)),
    [departments.data, search],
  );

  if (isForbidden(departments.error)) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={T.searchDepartments}
        addLabel={T.addDepartment}
        onAdd={() => modal.open(null)}
      />
      <TableCard>
        <SettingsTable
          label={T.tabDepartments}
          minWidth={340}
          head={
            <>
              <Table.Th>{T.colDepartmentName}</Table.Th>
              <Table.Th>{T.colSortOrder}</Table.Th>
            </>
          }
        >
          <DataTableBody
            query={departments}
            rows={rows}
            columns={COLUMNS}
            search={search}
            emptyText={T.departmentsEmpty}
            renderRow={(department) => (
              <DepartmentRow key={department.id} department={department} onOpen={() => modal.open(department)} />
            )}
          />
        </SettingsTable>
      </TableCard>
      <DepartmentModal opened={modal.opened} department={modal.item} onClose={modal.close} />
    </Stack>
  );
}

function DepartmentRow({ department, onOpen }: { department: Department; onOpen: () => void }) {
  return (
    <Table.Tr {...rowOpenProps(onOpen)} data-testid="department-row">
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
  );
}
