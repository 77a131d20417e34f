import { Select, Text, TextInput, type TextInputProps } from '@mantine/core';
import { useMemo } from 'react';
import { useDepartments, useRoles } from './api';
import { sortDepartments } from './logic';
import { T } from './texts';
import { useErrorToast } from './ui';

interface LoginInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'rightSection'> {
  value: string;
  onChange: (value: string) => void;
  /** '@domain', shown after the typed local part. */
  suffix: string;
  /** Edit form: a typed '@' means a whole address, so the suffix is hidden then. */
  allowFullAddress?: boolean;
}

/** The e-mail local part with the fixed '@domain' suffix shown inside the field (spec 03 §5). */
export function LoginInput({ value, onChange, suffix, allowFullAddress, ...rest }: LoginInputProps) {
  const showSuffix = suffix !== '' && !(allowFullAddress && value.includes('@'));
  return (
    <TextInput
      {...rest}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      rightSection={
        showSuffix ? (
          <Text size="sm" c="dimmed" data-testid="login-suffix" style={{ whiteSpace: 'nowrap' }}>
            {suffix}
          </Text>
        ) : undefined
      }
      rightSectionWidth={showSuffix ? `calc(${suffix.length}ch + 16px)` : undefined}
      rightSectionPointerEvents="none"
      styles={showSuffix ? { section: { justifyContent: 'flex-end', paddingRight: 12 } } : undefined}
    />
  );
}

interface IdSelectProps {
  value: string | null;
  onChange: (value: string | null) => void;
  error?: boolean;
  disabled?: boolean;
}

/** Roles come from the server list (spec 03 §6); a failed list shows 'Ошибка загрузки данных'. */
export function RoleSelect({ value, onChange, error, disabled }: IdSelectProps) {
  const roles = useRoles();
  useErrorToast(roles, T.dropdownLoadError, 'settings-roles-error');
  const data = useMemo(() => (roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name })), [roles.data]);
  return (
    <Select
      label={T.role}
      placeholder={T.chooseRole}
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      disabled={disabled}
      withAsterisk
      allowDeselect={false}
      comboboxProps={{ zIndex: 230 }}
      nothingFoundMessage={roles.isPending ? 'Загрузка...' : undefined}
    />
  );
}

/** Departments in their sort order; a failed list shows 'Ошибка загрузки данных'. */
export function DepartmentSelect({ value, onChange, error, disabled }: IdSelectProps) {
  const departments = useDepartments();
  useErrorToast(departments, T.dropdownLoadError, 'settings-departments-error');
  const data = useMemo(
    () => sortDepartments(departments.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
    [departments.data],
  );
  return (
    <Select
      label={T.department}
      placeholder={T.chooseDepartment}
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      disabled={disabled}
      withAsterisk
      searchable
      allowDeselect={false}
      comboboxProps={{ zIndex: 230 }}
      nothingFoundMessage={departments.isPending ? 'Загрузка...' : T.nothingFound}
    />
  );
}
