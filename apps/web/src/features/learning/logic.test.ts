import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/lessonTime';
import { block, courseModules, item } from './fixtures';
import {
  firstOpenItem,
  isScormCommit,
  hideCompleted,
  imageView,
  itemTooltip,
  linkButtons,
  moduleOf,
  orderBlocks,
  videoUrl,
} from './logic';

describe('hide-completed filter (docs/product.md §Course page)', () => {
  it('drops finished lessons and passed tests, then modules left empty', () => {
    const shown = hideCompleted(courseModules);
    expect(shown.map((m) => m.name)).toEqual(['Основы', 'Заключение']);
    expect(shown[0]!.lessonsList.map((i) => i.name)).toEqual(['Практика', 'Итоговый тест']);
  });
});

describe('item tooltips', () => {
  it('gives the four texts with their dates', () => {
    const [intro, basics] = courseModules;
    expect(itemTooltip(intro!.lessonsList[0]!)).toBe(`Завершен: ${formatDateTime('2026-03-01T07:10:00.000Z')}`);
    expect(itemTooltip(intro!.lessonsList[1]!)).toBe(`Завершен: ${formatDateTime('2026-03-01T08:05:00.000Z')}`);
    expect(itemTooltip(basics!.lessonsList[1]!)).toBe(`Начат: ${formatDateTime('2026-03-03T09:15:00.000Z')}`);
    expect(itemTooltip(basics!.lessonsList[2]!)).toBe(
      `Не завершен, время попытки: ${formatDateTime('2026-03-04T10:20:00.000Z')}`,
    );
    expect(itemTooltip(item({ id: 1, name: 'Новый' }))).toBeNull();
  });
});

describe('current module', () => {
  it('is the module of the first item not done', () => {
    const current = firstOpenItem(courseModules);
    expect(current).toEqual({ type: 'lesson', id: 22 });
    expect(moduleOf(courseModules, current)).toBe('2');
    expect(moduleOf(courseModules, { type: 'test', id: 31 })).toBeNull();
  });
});

describe('blocks', () => {
  it('puts title and description on top, the rest in order', () => {
    const ordered = orderBlocks([
      block({ id: 1, type: 'text', sort_order: 0 }),
      block({ id: 2, type: 'description', sort_order: 3 }),
      block({ id: 3, type: 'title', sort_order: 2 }),
      block({ id: 4, type: 'file', sort_order: 1 }),
    ]);
    expect(ordered.map((b) => b.id)).toEqual([3, 2, 1, 4]);
  });

  it('reads video, image and button contents, refusing what cannot be read', () => {
    expect(videoUrl(block({ id: 1, type: 'video', content: '{"url":"https://youtu.be/dQw4w9WgXcQ"}' }))).toBe(
      'https://youtu.be/dQw4w9WgXcQ',
    );
    expect(videoUrl(block({ id: 1, type: 'video', content: 'не json' }))).toBeNull();
    expect(
      imageView(
        block({
          id: 2,
          type: 'image',
          content: '{"url":"/storage/a.png","original_filename":"a.png","description":""}',
        }),
      ),
    ).toEqual({ src: '/storage/a.png', caption: 'Название файла: a.png' });
    expect(
      imageView(block({ id: 2, type: 'image', content: null, file_path: 'img/b.png', original_filename: 'b.png' })),
    ).toEqual({ src: '/storage/img/b.png', caption: 'Название файла: b.png' });
    expect(
      linkButtons(
        block({
          id: 3,
          type: 'button',
          content: '[{"title":"Портал","url":"https://example.com"},{"title":"Плохая","url":"javascript:alert(1)"}]',
        }),
      ),
    ).toEqual([{ title: 'Портал', url: 'https://example.com/' }]);
  });
});

describe('isScormCommit', () => {
  const frame = {} as Window;
  const commit = { type: 'lms-scorm-commit' };
  it('accepts only the frame’s own commit message from the launch’s origin', () => {
    expect(isScormCommit({ source: frame, origin: 'null', data: commit }, frame, 'null')).toBe(true);
    expect(isScormCommit({ source: {} as Window, origin: 'null', data: commit }, frame, 'null')).toBe(false);
    expect(isScormCommit({ source: frame, origin: 'https://lms.example', data: commit }, frame, 'null')).toBe(false);
    expect(isScormCommit({ source: frame, origin: 'null', data: 'lms-scorm-commit' }, frame, 'null')).toBe(false);
    expect(isScormCommit({ source: frame, origin: 'null', data: null }, frame, 'null')).toBe(false);
    expect(isScormCommit({ source: null, origin: 'null', data: commit }, null, 'null')).toBe(false);
  });
});
