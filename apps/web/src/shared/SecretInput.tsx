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
export function SecretInput({ invalid, onChange, ...field }: SecretInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...field}
      error={invalid}
      aria-invalid={invalid || undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ 'aria-label': visible ? 'Скрыть пароль' : 'Показать пароль' }}
    />
  );
}
