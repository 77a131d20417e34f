import type { DepartmentRequest } from '@lms/contract';
import { Badge, Grid, Group, Table, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { CrudTab, type CrudEntity, type CrudFieldsProps } from './CrudTab';
import { matchesSearch, parseSortOrder, sortDepartments } from './logic';
import { departments, type Department } from './queries';
import { SafeHtml } from './SafeHtml';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import { OpenButton, rowOpenProps } from './ui';

function DepartmentRow({ item: department, onOpen }: { item: Department; onOpen: () => void }) {
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

/** The name, and the sort order beside it (a whole number from 0, or empty). */
function DepartmentFields({ name, value, onChange, error, busy }: CrudFieldsProps<Department, string>) {
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, xs: 8 }}>{name}</Grid.Col>
      <Grid.Col span={{ base: 12, xs: 4 }}>
        <TextInput
          label={T.sortOrder}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error}
          inputMode="numeric"
          placeholder="0"
          disabled={busy}
          autoComplete="off"
        />
      </Grid.Col>
    </Grid>
  );
}

const sortValue = (raw: string) => {
  const sort = parseSortOrder(raw);
  return 'value' in sort ? sort.value : null;
};

const departmentEntity: CrudEntity<Department, DepartmentRequest, string> = {
  resource: departments,
  texts: {
    search: T.searchDepartments,
    add: T.addDepartment,
    table: T.tabDepartments,
    empty: T.departmentsEmpty,
    addTitle: T.addDepartmentTitle,
    editTitle: T.editDepartmentTitle,
    nameLabel: T.departmentName,
    needName: T.needDepartmentName,
    added: T.departmentAdded,
    updated: T.departmentUpdated,
    deleted: T.departmentDeleted,
    addError: T.addDepartmentError,
    updateError: T.updateDepartmentError,
    deleteError: T.deleteDepartmentError,
    confirmDeleteTitle: T.confirmDeleteDepartmentTitle,
    confirmDelete: T.confirmDeleteDepartment,
  },
  head: (
    <>
      <Table.Th>{T.colDepartmentName}</Table.Th>
      <Table.Th>{T.colSortOrder}</Table.Th>
    </>
  ),
  columns: 2,
  rows: (items, search) => sortDepartments(items).filter((d) => matchesSearch(search, d.name)),
  Row: DepartmentRow,
  skeleton: [58, 58],
  initial: (department) => (department?.sort_order == null ? '' : String(department.sort_order)),
  validate: (raw) => {
    const sort = parseSortOrder(raw);
    return 'error' in sort ? sort.error : null;
  },
  Fields: DepartmentFields,
  body: (name, courseIds, raw) => ({ name, sort_order: sortValue(raw), course_ids: courseIds }),
};

/** /settings/departments: the departments tab (docs/product.md §Settings). */
export default function DepartmentsPage() {
  return (
    <SettingsFrame>
      <CrudTab entity={departmentEntity} />
    </SettingsFrame>
  );
}
