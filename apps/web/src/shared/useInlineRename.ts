import { useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';

export interface InlineRename {
  /** Props of the text field: its value, typing, Enter/Escape and leaving it. */
  field: {
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
    onBlur: () => void;
  };
  /** Starts an edit from the current name (a field shown again). */
  begin: () => void;
  /** Ends the edit: saving the typed name, or not. Only the first call of an edit counts. */
  finish: (save: boolean) => void;
}

/**
 * A name edited in place (a catalogue category, a constructor module): Enter or leaving the field
 * saves, Escape cancels without closing what holds the field; an empty or unchanged name changes
 * nothing. An edit ends once, so the blur of a field Enter has just closed saves nothing twice.
 */
export function useInlineRename(name: string, onEnd: () => void, onSave: (name: string) => void): InlineRename {
  const [value, setValue] = useState(name);
  const settled = useRef(false);

  const begin = () => {
    settled.current = false;
    setValue(name);
  };
  const finish = (save: boolean) => {
    if (settled.current) return;
    settled.current = true;
    onEnd();
    const trimmed = value.trim();
    if (save && trimmed !== '' && trimmed !== name) onSave(trimmed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  };

  return {
    field: {
      value,
      onChange: (event) => setValue(event.currentTarget.value),
      onKeyDown,
      onBlur: () => finish(true),
    },
    begin,
    finish,
  };
}
