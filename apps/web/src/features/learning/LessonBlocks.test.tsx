import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { block } from './fixtures';
import { LessonBlocks } from './LessonBlocks';
import { SUCCESS_GREEN } from './texts';

function renderBlocks(...blocks: Parameters<typeof LessonBlocks>[0]['blocks']) {
  return render(
    <MantineProvider env="test">
      <LessonBlocks blocks={blocks} />
    </MantineProvider>,
  );
}

describe('lesson blocks (docs/product.md §Lesson page)', () => {
  it('renders text as HTML sanitized again', () => {
    const { container } = renderBlocks(
      block({
        id: 1,
        type: 'text',
        content: '<p><strong>Важно</strong></p><script>window.hacked = 1</script><img src="x" onerror="alert(1)">',
      }),
    );
    expect(screen.getByText('Важно').tagName).toBe('STRONG');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  it('captions an image with its description, else its file name', () => {
    renderBlocks(
      block({
        id: 1,
        type: 'image',
        content: JSON.stringify({ url: '/storage/a.png', original_filename: 'a.png', description: 'Схема эвакуации' }),
      }),
      block({
        id: 2,
        type: 'image',
        content: JSON.stringify({ url: '/storage/b.png', original_filename: 'b.png', description: '' }),
      }),
    );
    expect(screen.getByText('Схема эвакуации')).toBeInTheDocument();
    expect(screen.getByText('Название файла: b.png')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Схема эвакуации' })).toHaveAttribute('src', '/storage/a.png');
  });

  it('embeds a video in its player with a link that opens it in a new window', () => {
    const { container } = renderBlocks(
      block({
        id: 1,
        type: 'video',
        content: JSON.stringify({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', videoId: 'dQw4w9WgXcQ' }),
      }),
    );
    expect(container.querySelector('iframe')).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');
    const open = screen.getByRole('link', { name: 'Открыть видео в новом окне' });
    expect(open).toHaveAttribute('href', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it.each([
    'https://example.com/movie.mp4',
    'http://video.example.org/watch/42',
    '/storage/lessons/film.mp4',
    'https://vimeo.com/123456',
  ])('keeps a video on a host without a player reachable: %s opens in a new window, no error', (url) => {
    const { container } = renderBlocks(
      block({ id: 1, type: 'video', content: JSON.stringify({ url, videoId: null }) }),
    );
    expect(container.querySelector('iframe')).toBeNull();
    const open = screen.getByRole('link', { name: 'Открыть видео в новом окне' });
    expect(open.getAttribute('href')).toBe(url.startsWith('/') ? url : new URL(url).href);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByText('Ошибка при загрузке видео')).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\\evil.example/movie',
    '//evil.example/movie',
    '\\\\evil.example',
    'evil.example/movie',
    '',
  ])('shows only the error for a stored video link that may not be opened: %j', (url) => {
    const { container } = renderBlocks(
      block({ id: 1, type: 'video', content: JSON.stringify({ url, videoId: null }) }),
    );
    expect(screen.getByText('Ошибка при загрузке видео')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('shows only the error when a video block cannot be read', () => {
    renderBlocks(block({ id: 1, type: 'video', content: '{not json' }));
    expect(screen.getByText('Ошибка при загрузке видео')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('leaves out buttons and pictures whose stored link leads off the site by a trick', () => {
    const { container } = renderBlocks(
      block({
        id: 1,
        type: 'button',
        content: JSON.stringify([
          { title: 'Чужой сайт', url: '/\\evil.example' },
          { title: 'Скрипт', url: 'javascript:alert(1)' },
          { title: 'Курс', url: '/courses/1' },
        ]),
      }),
      block({ id: 2, type: 'image', content: JSON.stringify({ url: '/\\evil.example/a.png', description: 'Схема' }) }),
    );
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/courses/1']);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('Схема')).toBeInTheDocument();
  });

  it('links a file for download, named "Файл" by default', () => {
    renderBlocks(block({ id: 1, type: 'file', url: '/storage/files/x.pdf' }));
    expect(screen.getByText('Файл')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Нажмите для скачивания' })).toHaveAttribute(
      'href',
      '/storage/files/x.pdf',
    );
  });

  it('opens buttons in a new window, the first one green', () => {
    renderBlocks(
      block({
        id: 1,
        type: 'button',
        content: JSON.stringify([
          { title: 'Портал', url: 'https://portal.example.com' },
          { title: 'Инструкции', url: 'https://docs.example.com' },
        ]),
      }),
    );
    const first = screen.getByRole('link', { name: 'Портал' });
    const second = screen.getByRole('link', { name: 'Инструкции' });
    expect(first).toHaveAttribute('target', '_blank');
    expect(second).toHaveAttribute('target', '_blank');
    expect(first.getAttribute('style') ?? '').toContain(SUCCESS_GREEN);
    expect(second.getAttribute('style') ?? '').not.toContain(SUCCESS_GREEN);
  });

  it('puts the title and description on top', () => {
    const { container } = renderBlocks(
      block({ id: 1, type: 'text', content: '<p>Текст</p>', sort_order: 0 }),
      block({ id: 2, type: 'title', content: 'Заголовок', sort_order: 1 }),
    );
    const order = Array.from(container.querySelectorAll('[data-block]')).map((el) => el.getAttribute('data-block'));
    expect(order).toEqual(['title', 'text']);
  });
});
