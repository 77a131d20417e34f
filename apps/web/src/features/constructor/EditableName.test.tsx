import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EditableName, NAME_SAVE_DELAY } from './EditableName';

function renderName(element: ReactElement) {
  return render(<MantineProvider env="test">{element}</MantineProvider>);
}

function field(): HTMLInputElement {
  return screen.getByRole('textbox', { name: 'Название урока' });
}

function paste(input: HTMLInputElement, text: string) {
  const event = fireEvent.paste(input, {
    clipboardData: { getData: (type: string) => (type === 'text/plain' ? text : '') },
  });
  return event;
}

describe('EditableName (docs/product.md §Constructor)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('saves 3000 ms after the last keystroke, once, with the last value', () => {
    const onSave = vi.fn();
    const onChange = vi.fn();
    renderName(
      <EditableName
        initialValue="Урок"
        placeholder="Название урока"
        label="Название урока"
        onSave={onSave}
        onChange={onChange}
      />,
    );
    expect(NAME_SAVE_DELAY).toBe(3000);
    fireEvent.change(field(), { target: { value: 'Урок 1' } });
    act(() => vi.advanceTimersByTime(2000));
    fireEvent.change(field(), { target: { value: 'Урок 12' } });
    act(() => vi.advanceTimersByTime(2999));
    expect(onSave).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith('Урок 12');
    expect(onChange).toHaveBeenLastCalledWith('Урок 12');
    act(() => vi.advanceTimersByTime(10_000));
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it('allows an empty name and shows the placeholder', () => {
    const onSave = vi.fn();
    renderName(
      <EditableName initialValue="Урок" placeholder="Название урока" label="Название урока" onSave={onSave} />,
    );
    fireEvent.change(field(), { target: { value: '' } });
    expect(field()).toHaveAttribute('placeholder', 'Название урока');
    act(() => vi.advanceTimersByTime(3000));
    expect(onSave).toHaveBeenCalledWith('');
  });

  it('blocks Enter and a drop, and pastes plain text on one line', () => {
    const onSave = vi.fn();
    renderName(<EditableName initialValue="" placeholder="Название урока" label="Название урока" onSave={onSave} />);
    const input = field();
    expect(fireEvent.keyDown(input, { key: 'Enter' })).toBe(false);
    expect(fireEvent.keyDown(input, { key: 'a' })).toBe(true);
    expect(fireEvent.drop(input, { dataTransfer: { getData: () => 'перетащено' } })).toBe(false);
    expect(input).toHaveValue('');

    input.focus();
    expect(paste(input, 'Первая строка\r\nвторая\tтретья')).toBe(false);
    expect(input).toHaveValue('Первая строка вторая третья');
    act(() => vi.advanceTimersByTime(3000));
    expect(onSave).toHaveBeenCalledWith('Первая строка вторая третья');
  });

  it('pastes in place of the selection', () => {
    renderName(
      <EditableName initialValue="Урок один" placeholder="Название урока" label="Название урока" onSave={() => {}} />,
    );
    const input = field();
    input.focus();
    input.setSelectionRange(5, 9);
    paste(input, 'два');
    expect(input).toHaveValue('Урок два');
  });

  it('cancels the pending save when the field goes away', () => {
    const onSave = vi.fn();
    const { unmount } = renderName(
      <EditableName initialValue="Урок" placeholder="Название урока" label="Название урока" onSave={onSave} />,
    );
    fireEvent.change(field(), { target: { value: 'Не сохранится' } });
    act(() => vi.advanceTimersByTime(1500));
    unmount();
    act(() => vi.advanceTimersByTime(5000));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows a skeleton about 60% wide while loading', () => {
    renderName(
      <EditableName initialValue="" loading placeholder="Название урока" label="Название урока" onSave={() => {}} />,
    );
    expect(screen.queryByRole('textbox')).toBeNull();
    const skeleton = screen.getByLabelText('Название урока');
    expect(skeleton.className).toMatch(/Skeleton/);
    expect(skeleton.style.getPropertyValue('--skeleton-width')).toBe('60%');
  });
});
