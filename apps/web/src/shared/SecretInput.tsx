import { PasswordInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';

interface SecretInputProps {
  label: string;
  value: string;
  autoComplete: string;
  invalid: boolean;
  onChange: (value: string) => void;
  description?: ReactNode;
  autoFocus?: boolean;
}

/** A password field with its show/hide toggle named for screen readers (profile, own password). */
export function SecretInput({
  label,
  value,
  autoComplete,
  invalid,
  onChange,
  description,
  autoFocus,
}: SecretInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      label={label}
      description={description}
      value={value}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      error={invalid}
      aria-invalid={invalid || undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ 'aria-label': visible ? 'Скрыть пароль' : 'Показать пароль' }}
    />
  );
}
