import type { ChangeEvent, ClipboardEvent, DragEvent, KeyboardEvent } from 'react';

/**
 * One-line fields of the lesson editor (docs/product.md §Lesson editor): Enter does not break the line, a paste is
 * plain text (line breaks become spaces), and nothing can be dropped onto the field.
 */
export function blockEnter(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key === 'Enter') event.preventDefault();
}

export function blockDrop(event: DragEvent<HTMLInputElement>): void {
  event.preventDefault();
}

/** The pasted text as one plain line. */
export function plainLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ');
}

/**
 * Pastes the clipboard's plain text in place of the selection and reports the new value; the caret
 * goes after the pasted text.
 */
export function pastePlain(event: ClipboardEvent<HTMLInputElement>, onValue: (value: string) => void): void {
  event.preventDefault();
  const input = event.currentTarget;
  const text = plainLine(event.clipboardData.getData('text/plain'));
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  const max = input.maxLength > 0 ? input.maxLength : Infinity;
  const room = Math.max(0, max - (input.value.length - (end - start)));
  const inserted = text.slice(0, room);
  const value = input.value.slice(0, start) + inserted + input.value.slice(end);
  onValue(value);
  const caret = start + inserted.length;
  // React renders the new value in a microtask queued before this one.
  queueMicrotask(() => {
    if (document.activeElement === input) input.setSelectionRange(caret, caret);
  });
}

/** The handlers of a one-line field: typing and pasting report the new value to `onValue`. */
export function singleLineHandlers(onValue: (value: string) => void) {
  return {
    onChange: (event: ChangeEvent<HTMLInputElement>) => onValue(event.currentTarget.value),
    onKeyDown: blockEnter,
    onPaste: (event: ClipboardEvent<HTMLInputElement>) => pastePlain(event, onValue),
    onDrop: blockDrop,
  };
}
