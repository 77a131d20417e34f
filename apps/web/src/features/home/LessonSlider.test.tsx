import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render';
import { startedLessons } from './fixtures';
import { LessonSlider, SLIDER_FADE_MS } from './LessonSlider';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const page = () => screen.getByTestId('lesson-slider-page');
const names = () =>
  within(page())
    .getAllByRole('link')
    .map((link) => link.querySelector('p:nth-of-type(2)')?.textContent);
const next = () => fireEvent.click(screen.getByRole('button', { name: 'Следующие уроки' }));
const previous = () => fireEvent.click(screen.getByRole('button', { name: 'Предыдущие уроки' }));
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('LessonSlider', () => {
  it('shows 2 lessons a page with prev/next controls', () => {
    renderAt(<LessonSlider lessons={startedLessons(5)} />);
    expect(names()).toEqual(['Урок 1', 'Урок 2']);
    expect(screen.getByTestId('slider-position')).toHaveTextContent('1 / 3');
    expect(screen.getByRole('button', { name: 'Предыдущие уроки' })).toBeDisabled();
  });

  it('fades out 150 ms, swaps the page, fades in 150 ms', () => {
    renderAt(<LessonSlider lessons={startedLessons(5)} />);
    next();
    expect(page()).toHaveStyle({ opacity: '0' });
    expect(names()).toEqual(['Урок 1', 'Урок 2']);
    advance(SLIDER_FADE_MS - 1);
    expect(names()).toEqual(['Урок 1', 'Урок 2']);
    advance(1);
    expect(names()).toEqual(['Урок 3', 'Урок 4']);
    expect(page()).toHaveStyle({ opacity: '1' });
    expect(screen.getByTestId('slider-position')).toHaveTextContent('2 / 3');
  });

  it('ignores clicks during the 300 ms animation', () => {
    renderAt(<LessonSlider lessons={startedLessons(6)} />);
    next();
    advance(100);
    next(); // fading out: ignored
    advance(100);
    expect(names()).toEqual(['Урок 3', 'Урок 4']);
    next(); // fading in: ignored
    previous(); // ignored too
    advance(SLIDER_FADE_MS);
    expect(names()).toEqual(['Урок 3', 'Урок 4']);
    expect(screen.getByTestId('slider-position')).toHaveTextContent('2 / 3');

    next(); // the animation is over: accepted
    advance(2 * SLIDER_FADE_MS);
    expect(names()).toEqual(['Урок 5', 'Урок 6']);
    expect(screen.getByRole('button', { name: 'Следующие уроки' })).toBeDisabled();

    previous();
    advance(2 * SLIDER_FADE_MS);
    expect(names()).toEqual(['Урок 3', 'Урок 4']);
  });

  it('has no controls when everything fits on one page', () => {
    renderAt(<LessonSlider lessons={startedLessons(2)} />);
    expect(names()).toEqual(['Урок 1', 'Урок 2']);
    expect(screen.queryByRole('button', { name: 'Следующие уроки' })).not.toBeInTheDocument();
  });
});
