import type { ConstructorModule, LessonBlock, ModuleLesson, ModuleTest } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import {
  canAddButton,
  canDeleteButton,
  canUseConstructor,
  contentsPayload,
  draftFromContents,
  firstLessonId,
  imageFileProblem,
  moduleItems,
  newBlock,
  publishOutcome,
  searchModules,
  storagePath,
  unpublishedItems,
  uploadFileProblem,
  withItemOrder,
  withModuleOrder,
} from './logic';

const lesson = (id: number, name: string, sort_order: number, is_published = false): ModuleLesson => ({
  id,
  name,
  module_id: 1,
  is_published,
  sort_order,
  type: 'lesson',
});
const test = (id: number, name: string, sort_order: number, is_published = false): ModuleTest => ({
  ...lesson(id, name, sort_order, is_published),
  type: 'test',
});
const module = (
  id: number,
  name: string,
  sort_order: number,
  lessons: ModuleLesson[] = [],
  tests: ModuleTest[] = [],
): ConstructorModule => ({
  id,
  name,
  course_id: 7,
  sort_order,
  status: 'process',
  is_published: false,
  published_at: null,
  lessons,
  tests,
});

const modules = [
  module(2, 'Итоги', 1, [lesson(21, 'Заключение', 0, true)]),
  module(1, 'Введение', 0, [lesson(11, 'Знакомство', 2), lesson(12, 'Правила', 0)], [test(13, 'Проверка', 1)]),
];

describe('constructor logic', () => {
  it('is for users with constructor.manage', () => {
    expect(canUseConstructor(['learning', 'constructor.manage'])).toBe(true);
    expect(canUseConstructor(['learning', 'catalogue.manage'])).toBe(false);
    expect(canUseConstructor(undefined)).toBe(false);
  });

  it('merges lessons and tests by sort_order', () => {
    expect(moduleItems(modules[1]!).map((i) => `${i.type}:${i.name}`)).toEqual([
      'lesson:Правила',
      'test:Проверка',
      'lesson:Знакомство',
    ]);
  });

  it('opens the first lesson of the first module', () => {
    expect(firstLessonId(modules)).toBe(12);
    expect(firstLessonId([module(1, 'Пусто', 0), module(2, 'Ещё', 1, [lesson(5, 'Урок', 0)])])).toBeNull();
    expect(firstLessonId([])).toBeNull();
  });

  it('searches modules and items case-insensitively and opens the matches', () => {
    const byItem = searchModules(modules, 'ПРАВ');
    expect(byItem.shown.map((s) => [s.module.name, s.items.map((i) => i.name)])).toEqual([['Введение', ['Правила']]]);
    expect(byItem.expanded).toEqual(['module-1']);
    const byModule = searchModules(modules, 'итог');
    expect(byModule.shown.map((s) => [s.module.name, s.items.length])).toEqual([['Итоги', 1]]);
    expect(searchModules(modules, '  ').shown.map((s) => s.module.name)).toEqual(['Введение', 'Итоги']);
    expect(searchModules(modules, 'нет такого').shown).toEqual([]);
  });

  it('renumbers modules and items from 0', () => {
    expect(withModuleOrder(modules, [2, 1]).map((m) => [m.id, m.sort_order])).toEqual([
      [2, 0],
      [1, 1],
    ]);
    const items = moduleItems(modules[1]!);
    const reordered = withItemOrder(modules, 1, [items[2]!, items[0]!, items[1]!]);
    expect(moduleItems(reordered[1]!).map((i) => [i.name, i.sort_order])).toEqual([
      ['Знакомство', 0],
      ['Правила', 1],
      ['Проверка', 2],
    ]);
  });

  it('publish-all: what to publish and what to say', () => {
    expect(unpublishedItems(modules).map((i) => i.name)).toEqual(['Правила', 'Проверка', 'Знакомство']);
    const [rules, check, intro] = unpublishedItems(modules);
    expect(publishOutcome(0, [])).toEqual({ success: 'Все уроки и тесты уже опубликованы' });
    // Russian plurals (issue 30)
    expect(publishOutcome(1, [])).toEqual({ success: 'Опубликовано: 1 элемент' });
    expect(publishOutcome(2, [])).toEqual({ success: 'Опубликовано: 2 элемента' });
    expect(publishOutcome(5, [])).toEqual({ success: 'Опубликовано: 5 элементов' });
    expect(publishOutcome(21, [])).toEqual({ success: 'Опубликовано: 21 элемент' });
    expect(publishOutcome(12, [])).toEqual({ success: 'Опубликовано: 12 элементов' });
    // each failed item is named
    expect(publishOutcome(3, [check!])).toEqual({
      success: 'Опубликовано: 2 элемента',
      error: 'Ошибка при публикации теста «Проверка»',
    });
    expect(publishOutcome(3, [rules!, intro!])).toEqual({
      success: 'Опубликовано: 1 элемент',
      error: 'Не удалось опубликовать элементы (2): урок «Правила», урок «Знакомство»',
    });
    expect(publishOutcome(2, [rules!, check!])).toEqual({
      error: 'Не удалось опубликовать элементы (2): урок «Правила», тест «Проверка»',
    });
  });

  it('turns stored blocks into the editor state and back into PUT …/contents', () => {
    const stored: LessonBlock[] = [
      {
        id: 5,
        type: 'button',
        content: [{ title: 'Сайт', url: 'https://e.x' }],
        file_path: null,
        original_filename: null,
        sort_order: 3,
      },
      { id: 1, type: 'title', content: 'Заголовок', file_path: null, original_filename: null, sort_order: -2 },
      { id: 2, type: 'text', content: '<p>Текст</p>', file_path: null, original_filename: null, sort_order: 0 },
      {
        id: 3,
        type: 'video',
        content: { url: 'https://youtu.be/dQw4w9WgXcQ', videoId: 'dQw4w9WgXcQ' },
        file_path: null,
        original_filename: null,
        sort_order: 1,
      },
      {
        id: 4,
        type: 'image',
        content: {
          url: '/storage/lessons/a.png',
          file_path: 'lessons/a.png',
          original_filename: 'a.png',
          description: 'Схема',
        },
        file_path: 'lessons/a.png',
        original_filename: 'a.png',
        sort_order: 2,
      },
      { id: 6, type: 'file', content: null, file_path: 'lessons/f.pdf', original_filename: 'f.pdf', sort_order: 4 },
    ];
    const draft = draftFromContents(stored);
    expect(draft.title).toEqual({ id: 1, text: 'Заголовок' });
    expect(typeof draft.description.id).toBe('string');
    expect(draft.blocks.map((b) => b.type)).toEqual(['text', 'video', 'image', 'button', 'file']);

    const payload = contentsPayload({ ...draft, blocks: [...draft.blocks, newBlock('button')] });
    expect(payload.map((b) => [b.type, b.sort_order])).toEqual([
      ['title', -2],
      ['description', -1],
      ['text', 0],
      ['video', 1],
      ['image', 2],
      ['button', 3],
      ['file', 4],
      ['button', 5],
    ]);
    expect(String(payload[1]?.id)).toMatch(/^tmp-/);
    expect(String(payload[7]?.id)).toMatch(/^tmp-/);
    expect(payload[7]?.content).toEqual([{ title: 'Кнопка', url: '' }]);
    expect(payload[3]?.content).toEqual({ url: 'https://youtu.be/dQw4w9WgXcQ' });
    expect(payload[4]).toMatchObject({
      id: 4,
      file_path: 'lessons/a.png',
      content: {
        url: '/storage/lessons/a.png',
        file_path: 'lessons/a.png',
        original_filename: 'a.png',
        description: 'Схема',
      },
    });
    expect(payload[6]).toMatchObject({ id: 6, content: null, file_path: 'lessons/f.pdf', original_filename: 'f.pdf' });
  });

  it('button rules', () => {
    expect(canAddButton([{ title: 'a', url: '' }])).toBe(true);
    expect(canAddButton([])).toBe(false);
    expect(
      canAddButton([
        { title: 'a', url: '' },
        { title: 'b', url: '' },
      ]),
    ).toBe(false);
    expect(canDeleteButton(0)).toBe(false);
    expect(canDeleteButton(1)).toBe(true);
  });

  it('upload checks', () => {
    const MB = 1024 * 1024;
    expect(imageFileProblem({ type: 'image/webp', name: 'a.webp', size: 20 * MB })).toBeNull();
    expect(imageFileProblem({ type: 'image/bmp', name: 'a.bmp', size: 1 })).toBe(
      'Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif',
    );
    expect(imageFileProblem({ type: '', name: 'photo.JPG', size: 1 })).toBeNull();
    expect(imageFileProblem({ type: 'image/gif', name: 'a.gif', size: 20 * MB + 1 })).toBe(
      'Размер файла не должен превышать 20 МБ',
    );
    expect(uploadFileProblem({ size: 4 * 1024 * MB })).toBeNull();
    expect(uploadFileProblem({ size: 4 * 1024 * MB + 1 })).toBe('Размер файла не должен превышать 4 ГБ');
    expect(storagePath('lessons/a.png')).toBe('/storage/lessons/a.png');
    expect(storagePath('storage/lessons/a.png')).toBe('/storage/lessons/a.png');
  });
});
