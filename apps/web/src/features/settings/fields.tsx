import { Select, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { MailboxInput } from '../../shared/MailboxInput';
import { sortDepartments, type StudentField } from './logic';
import { departments as departmentList, useRoles } from './queries';
import { T } from './texts';
import { useErrorToast } from './ui';

/** The person fields of an employee form, as typed. */
export interface PersonDraft {
  first_name: string;
  last_name: string;
  /** E-mail local part (the suffix is shown next to it). */
  local: string;
  position: string;
}

interface PersonFieldsProps {
  value: PersonDraft;
  onChange: (field: keyof PersonDraft, value: string) => void;
  hasError: (field: StudentField) => boolean;
  /** '@domain' after the e-mail field. */
  suffix: string;
  disabled: boolean;
  /** Edit form: an address typed with '@' is taken whole (docs/product.md §Settings). */
  allowFullAddress?: boolean;
  emailPlaceholder?: string;
  /** A person the directory sync keeps: these fields are the directory's and cannot be edited here. */
  synced?: boolean;
}

/** Last name, first name, e-mail and position, in the grid of the add and edit forms (docs/product.md §Settings). */
export function PersonFields({
  value,
  onChange,
  hasError,
  suffix,
  disabled,
  allowFullAddress,
  emailPlaceholder,
  synced = false,
}: PersonFieldsProps) {
  const text = (field: 'first_name' | 'last_name' | 'position', label: string) => (
    <TextInput
      label={label}
      placeholder={field === 'position' ? T.positionPlaceholder : undefined}
      value={value[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
      error={field === 'position' ? undefined : hasError(field)}
      withAsterisk={field !== 'position'}
      disabled={disabled || synced}
      autoComplete="off"
    />
  );
  return (
    <>
      {text('last_name', T.lastName)}
      {text('first_name', T.firstName)}
      <MailboxInput
        label={T.email}
        value={value.local}
        onChange={(v) => onChange('local', v)}
        suffix={suffix}
        allowFullAddress={allowFullAddress}
        error={hasError('local')}
        withAsterisk
        disabled={disabled || synced}
        placeholder={emailPlaceholder}
        autoComplete="off"
      />
      {text('position', T.position)}
    </>
  );
}

interface RoleAndDepartmentProps {
  roleId: string | null;
  departmentId: string | null;
  onChange: (field: 'roleId' | 'departmentId', value: string | null) => void;
  hasError: (field: 'role' | 'department') => boolean;
  disabled: boolean;
  /** The department comes from the directory (a synced person). */
  departmentLocked?: boolean;
}

/** The role and department choices of an employee form (both required, docs/product.md §Settings). */
export function RoleAndDepartment({
  roleId,
  departmentId,
  onChange,
  hasError,
  disabled,
  departmentLocked = false,
}: RoleAndDepartmentProps) {
  return (
    <>
      <RoleSelect value={roleId} onChange={(v) => onChange('roleId', v)} error={hasError('role')} disabled={disabled} />
      <DepartmentSelect
        value={departmentId}
        onChange={(v) => onChange('departmentId', v)}
        error={hasError('department')}
        disabled={disabled || departmentLocked}
      />
    </>
  );
}

interface IdSelectProps {
  value: string | null;
  onChange: (value: string | null) => void;
  error?: boolean;
  disabled?: boolean;
}

interface ListSelectProps extends IdSelectProps {
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
  loading: boolean;
  searchable?: boolean;
  nothingFound?: string;
}

/** A required choice from a server list (roles, departments). */
function ListSelect({ label, placeholder, options, loading, searchable, nothingFound, ...field }: ListSelectProps) {
  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={options}
      {...field}
      withAsterisk
      searchable={searchable}
      allowDeselect={false}
      comboboxProps={{ zIndex: 230 }}
      nothingFoundMessage={loading ? 'Загрузка...' : nothingFound}
    />
  );
}

/** Roles come from the server list (docs/product.md §Settings); a failed list shows 'Ошибка загрузки данных'. */
export function RoleSelect(props: IdSelectProps) {
  const roles = useRoles();
  useErrorToast(roles, T.dropdownLoadError, 'settings-roles-error');
  const options = useMemo(() => (roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name })), [roles.data]);
  return (
    <ListSelect label={T.role} placeholder={T.chooseRole} options={options} loading={roles.isPending} {...props} />
  );
}

/** Departments in their sort order; a failed list shows 'Ошибка загрузки данных'. */
export function DepartmentSelect(props: IdSelectProps) {
  const departments = departmentList.useList();
  useErrorToast(departments, T.dropdownLoadError, 'settings-departments-error');
  const options = useMemo(
    () => sortDepartments(departments.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
    [departments.data],
  );
  return (
    <ListSelect
      label={T.department}
      placeholder={T.chooseDepartment}
      options={options}
      loading={departments.isPending}
      searchable
      nothingFound={T.nothingFound}
      {...props}
    />
  );
}
