import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COURSE_PLACEHOLDER_IMAGE, CoverImage } from './CourseCard';

describe('CoverImage', () => {
  it('shows the placeholder when there is no image or the image fails to load', () => {
    const { container, rerender } = render(<CoverImage src={null} />);
    expect(container.querySelector('img')).toHaveAttribute('src', COURSE_PLACEHOLDER_IMAGE);
    rerender(<CoverImage src="/storage/missing.png" />);
    const img = container.querySelector('img');
    expect(img).toHaveAttribute('src', '/storage/missing.png');
    if (img) fireEvent.error(img);
    expect(container.querySelector('img')?.getAttribute('src')).toContain(COURSE_PLACEHOLDER_IMAGE);
  });

  it('loads lazily unless eager', () => {
    const { container, rerender } = render(<CoverImage src="/storage/a.png" />);
    expect(container.querySelector('img')).toHaveAttribute('loading', 'lazy');
    rerender(<CoverImage src="/storage/a.png" eager />);
    expect(container.querySelector('img')).toHaveAttribute('loading', 'eager');
  });
});
