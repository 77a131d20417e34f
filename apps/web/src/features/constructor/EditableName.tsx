import { Skeleton, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { singleLineHandlers } from './singleLine';

/** Name auto-save delay after the last keystroke (docs/product.md §Constructor). */
export const NAME_SAVE_DELAY = 3000;

interface EditableNameProps {
  /** The stored name; the field starts from it. */
  initialValue: string;
  /** A skeleton bar about 60% wide stands in while the lesson loads. */
  loading?: boolean;
  placeholder: string;
  label: string;
  delay?: number;
  /** Every edit, at once (the page keeps the current name for its publish switch). */
  onChange?: (value: string) => void;
  /** The name to save, `delay` ms after the last edit. */
  onSave: (value: string) => void;
  /** True from an edit until its save starts: a name typed but not saved yet (a leave asks first). */
  onPendingChange?: (pending: boolean) => void;
}

/**
 * The lesson's (or test's) name line (docs/product.md §Constructor): one line (Enter blocked), plain-text paste,
 * no drop, a placeholder when empty; an empty name is allowed. Each edit restarts a 3000 ms timer
 * that saves the name; the pending save is cancelled when the field goes away.
 */
export function EditableName({
  initialValue,
  loading = false,
  placeholder,
  label,
  delay = NAME_SAVE_DELAY,
  onChange,
  onSave,
  onPendingChange,
}: EditableNameProps) {
  const [value, setValue] = useState(initialValue);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const save = useRef(onSave);
  save.current = onSave;
  const pending = useRef(onPendingChange);
  pending.current = onPendingChange;

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  if (loading) return <Skeleton height={40} width="60%" radius="md" aria-label={label} />;

  const edit = (next: string) => {
    setValue(next);
    onChange?.(next);
    if (timer.current !== null) clearTimeout(timer.current);
    else pending.current?.(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      pending.current?.(false);
      save.current(next);
    }, delay);
  };

  return (
    <TextInput
      variant="unstyled"
      value={value}
      placeholder={placeholder}
      aria-label={label}
      maxLength={255}
      autoComplete="off"
      {...singleLineHandlers(edit)}
      styles={{
        input: {
          fontSize: 'var(--mantine-h2-font-size)',
          fontWeight: 700,
          height: 'auto',
          lineHeight: 1.3,
          paddingBlock: 4,
        },
      }}
      flex={1}
      miw={0}
    />
  );
}
