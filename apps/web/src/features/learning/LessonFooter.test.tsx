import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LessonFooter } from './LessonFooter';

type Props = Parameters<typeof LessonFooter>[0];

function renderFooter(over: Partial<Props>) {
  const onComplete = vi.fn();
  render(
    <MantineProvider env="test">
      <LessonFooter
        startedAt={null}
        completedAt={null}
        serverTime="2026-03-03T10:00:00.000Z"
        completing={false}
        onComplete={onComplete}
        {...over}
      />
    </MantineProvider>,
  );
  return onComplete;
}

describe('lesson footer (docs/product.md §Lesson page)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the time spent of a finished lesson', () => {
    renderFooter({ startedAt: '2026-03-03T09:00:00.000Z', completedAt: '2026-03-03T10:12:05.000Z' });
    expect(screen.getByText('Урок завершен, затраченное время: 01:12:05')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отметить урок завершенным' })).not.toBeInTheDocument();
  });

  it('shows 00:00:00 for a lesson completed without a start', () => {
    renderFooter({ completedAt: '2026-03-03T10:12:05.000Z' });
    expect(screen.getByText('Урок завершен, затраченное время: 00:00:00')).toBeInTheDocument();
  });

  it('runs the lesson timer from the server time, one second a tick', () => {
    renderFooter({ startedAt: '2026-03-03T09:58:30.000Z' });
    expect(screen.getByText(/Время урока/)).toBeInTheDocument();
    expect(screen.getByTestId('lesson-timer')).toHaveTextContent('00:01:30');
    act(() => vi.advanceTimersByTime(999));
    expect(screen.getByTestId('lesson-timer')).toHaveTextContent('00:01:30');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('lesson-timer')).toHaveTextContent('00:01:31');
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.getByTestId('lesson-timer')).toHaveTextContent('00:02:00');
    expect(screen.getByRole('button', { name: 'Отметить урок завершенным' })).toBeInTheDocument();
  });

  it('shows only the complete button for a lesson not started', () => {
    const onComplete = renderFooter({});
    expect(screen.queryByText(/Время урока/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Урок завершен/)).not.toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Отметить урок завершенным' }).click());
    expect(onComplete).toHaveBeenCalledTimes(1);
  });
});
