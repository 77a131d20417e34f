import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface SearchInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'leftSection' | 'rightSection'> {
  value: string;
  onChange: (value: string) => void;
  /** Also the field's accessible name. */
  placeholder: string;
}

/** The accessible name of the clear button, shown while there is text. */
const CLEAR_LABEL = 'Очистить поиск';

/** A search field with a magnifier and a button that clears it; other props size and place it. */
export function SearchInput({ value, onChange, placeholder, ...layout }: SearchInputProps) {
  return (
    <TextInput
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      placeholder={placeholder}
      aria-label={placeholder}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      rightSection={value ? <CloseButton size="sm" aria-label={CLEAR_LABEL} onClick={() => onChange('')} /> : null}
      {...layout}
    />
  );
}
