import { Stack, Text, TextInput, Textarea, UnstyledButton } from '@mantine/core';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import classes from './Constructor.module.css';
import { T } from './texts';

interface HeaderFieldProps {
  /** The stored value. */
  value: string;
  /** At most this many characters; typing beyond is ignored (docs/product.md §Constructor). */
  max: number;
  /** The description may hold line breaks (Shift+Enter); the title is one line. */
  multiline?: boolean;
  /** The field's accessible name. */
  label: string;
  /** The idle text's tooltip and accessible description. */
  editHint: string;
  /** Shown in idle mode when the value is empty. */
  emptyText?: string;
  /** How the idle value looks (a heading for the title). */
  renderValue: (shown: string) => ReactNode;
  /**
   * Sends a changed value; resolves true when it was saved. Not called when the value did not
   * change. While it runs, the new value is shown; on false the stored value comes back.
   */
  onCommit: (value: string) => Promise<boolean>;
}

/**
 * The course title or description in the header (docs/product.md §Constructor): idle until clicked; in editing mode
 * Enter without Shift or leaving the field commits (sent only when changed), Escape restores the
 * stored value. A counter 'N/max символов' shows while editing.
 */
export function HeaderField({
  value,
  max,
  multiline = false,
  label,
  editHint,
  emptyText,
  renderValue,
  onCommit,
}: HeaderFieldProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [pending, setPending] = useState<string | null>(null);
  const shown = pending ?? value;

  const start = () => {
    setDraft(shown);
    setEditing(true);
  };

  const commit = () => {
    if (!editing) return;
    setEditing(false);
    const next = draft.trim();
    if (next === value.trim()) return;
    setPending(next);
    void onCommit(next).finally(() => setPending(null));
  };

  const cancel = () => {
    setDraft(value);
    setEditing(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };

  const change = (next: string) => setDraft(next.slice(0, max));

  if (!editing) {
    return (
      <UnstyledButton
        onClick={start}
        title={editHint}
        aria-label={`${label}: ${shown || emptyText || ''}. ${editHint}`}
        style={{ borderRadius: 'var(--mantine-radius-sm)', display: 'block', maxWidth: '100%' }}
        className={classes.editable}
      >
        {shown ? (
          renderValue(shown)
        ) : (
          <Text c="dimmed" fs="italic">
            {emptyText}
          </Text>
        )}
      </UnstyledButton>
    );
  }

  const common = {
    'aria-label': label,
    value: draft,
    maxLength: max,
    autoFocus: true,
    onKeyDown,
    onBlur: commit,
    onFocus: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
      const end = event.currentTarget.value.length;
      event.currentTarget.setSelectionRange(end, end);
    },
  };

  return (
    <Stack gap={4}>
      {multiline ? (
        <Textarea {...common} rows={3} resize="vertical" onChange={(e) => change(e.currentTarget.value)} />
      ) : (
        <TextInput
          {...common}
          size="md"
          onChange={(e) => change(e.currentTarget.value)}
          styles={{ input: { fontWeight: 700 } }}
        />
      )}
      <Text size="xs" c="dimmed" aria-live="polite">
        {T.counter(draft.length, max)}
      </Text>
    </Stack>
  );
}
