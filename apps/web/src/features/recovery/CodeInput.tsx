import { Button, Group, Input, Stack } from '@mantine/core';
import { IconClipboard } from '@tabler/icons-react';
import { useRef, type ChangeEvent, type ClipboardEvent, type KeyboardEvent } from 'react';
import { toastError } from '../../shared/toast';
import { CODE_LENGTH, codeDigits } from './recovery';

export const EMPTY_CODE: readonly string[] = Array.from({ length: CODE_LENGTH }, () => '');

export const TEXT_PASTE = 'Вставить';
export const TEXT_PASTE_FAILED = 'Не удалось прочитать буфер обмена. Вставьте код сочетанием клавиш Ctrl+V.';

/** The boxes filled from the first one with the digits of a pasted text (at most six). */
export function codeFromText(text: string): string[] {
  const digits = codeDigits(text).split('');
  return EMPTY_CODE.map((_, index) => digits[index] ?? '');
}

interface CodeInputProps {
  /** One entry per box: '' or a single digit. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  disabled?: boolean;
  error?: boolean;
  autoFocus?: boolean;
}

/**
 * Six single-digit boxes (docs/product.md §Recovery): digits only, one per box; typing moves to the next box,
 * Backspace on an empty box moves to the previous one; a paste into any box (or the 'Вставить'
 * button) keeps only the digits, at most six, and fills the boxes from the first.
 */
export function CodeInput({ value, onChange, disabled = false, error = false, autoFocus = false }: CodeInputProps) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  const setBox = (index: number, digit: string) => {
    const next = [...value];
    next[index] = digit;
    onChange(next);
  };

  const fill = (text: string) => {
    const next = codeFromText(text);
    const filled = next.filter((d) => d !== '').length;
    if (filled === 0) return;
    onChange(next);
    focusBox(filled);
  };

  const onBoxChange = (index: number, event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.currentTarget.value;
    const digits = typed.replace(/\D/g, '');
    if (typed === '') {
      setBox(index, '');
      return;
    }
    if (digits === '') return; // not a digit: the box keeps what it had
    if (digits.length > 2) {
      // several digits at once (e.g. a one-time-code autofill): same as a paste
      fill(digits);
      return;
    }
    const old = value[index] ?? '';
    // typed next to the digit already in the box: keep the new one
    const digit = digits.length === 2 && digits.startsWith(old) ? digits.slice(1) : digits.slice(0, 1);
    setBox(index, digit);
    if (index < CODE_LENGTH - 1) focusBox(index + 1);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && event.currentTarget.value === '' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < CODE_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    fill(event.clipboardData.getData('text'));
  };

  const pasteFromClipboard = async () => {
    try {
      fill(await navigator.clipboard.readText());
    } catch {
      toastError(TEXT_PASTE_FAILED);
    }
  };

  return (
    <Stack gap="xs" align="center">
      <Group role="group" aria-label="Код из письма" gap="xs" wrap="nowrap" justify="center" dir="ltr">
        {value.map((digit, index) => (
          <Input
            key={index}
            ref={(node: HTMLInputElement | null) => {
              boxes.current[index] = node;
            }}
            value={digit}
            onChange={(event: ChangeEvent<HTMLInputElement>) => onBoxChange(index, event)}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => onKeyDown(index, event)}
            onPaste={onPaste}
            onFocus={(event) => event.currentTarget.select()}
            aria-label={`Цифра ${index + 1} из ${CODE_LENGTH}`}
            inputMode="numeric"
            type="text"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            autoFocus={autoFocus && index === 0}
            disabled={disabled}
            error={error}
            size="lg"
            w={{ base: 40, xs: 48 }}
            styles={{ input: { textAlign: 'center', paddingInline: 0, fontSize: 22, fontWeight: 600 } }}
            data-testid={`code-box-${index + 1}`}
          />
        ))}
      </Group>
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconClipboard size={16} aria-hidden="true" />}
        onClick={() => void pasteFromClipboard()}
        disabled={disabled}
      >
        {TEXT_PASTE}
      </Button>
    </Stack>
  );
}
