import { Text, TextInput, type TextInputProps } from '@mantine/core';

interface MailboxInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'rightSection'> {
  value: string;
  onChange: (value: string) => void;
  /** '@domain', shown after the typed mailbox part; nothing when empty. */
  suffix: string;
  /** A typed '@' means a whole address, so the suffix is hidden then (recovery, editing an employee). */
  allowFullAddress?: boolean;
}

/** The mailbox field of the guest pages (sign-in, recovery): 'Почта', 'ivanov', the saved login, focused. */
export const GUEST_MAILBOX = {
  label: 'Почта',
  placeholder: 'ivanov',
  autoComplete: 'username',
  autoFocus: true,
} as const;

/**
 * The mailbox part of a corporate address, with the fixed '@domain' suffix shown inside the field
 * (docs/product.md §Sign-in, §Settings): sign-in, recovery and the employee forms.
 */
export function MailboxInput({ value, onChange, suffix, allowFullAddress, ...rest }: MailboxInputProps) {
  const showSuffix = suffix !== '' && !(allowFullAddress && value.includes('@'));
  return (
    <TextInput
      autoCapitalize="none"
      spellCheck={false}
      {...rest}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
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
