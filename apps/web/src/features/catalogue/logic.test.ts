import type { CatalogueCategory } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { applyDraft, canManageCatalogue, draftChanged, draftFrom, moveItem, updatePayload } from './logic';

const cat = (id: number, name: string, sort_order = 0): CatalogueCategory => ({ id, name, sort_order, items: [] });
const loaded = [cat(1, 'Обязательное', 0), cat(2, 'Продукты', 1), cat(3, 'Навыки', 2), cat(-1, 'Без категории', 3)];

describe('catalogue edit mode logic', () => {
  it('starts from the real categories in the loaded order', () => {
    expect(draftFrom(loaded)).toEqual([
      { id: 1, name: 'Обязательное' },
      { id: 2, name: 'Продукты' },
      { id: 3, name: 'Навыки' },
    ]);
  });

  it('moves an item up or down and stops at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('builds the update payload with trimmed names and positions, never -1', () => {
    const draft = [
      { id: 3, name: ' Навыки 2 ' },
      { id: 1, name: 'Обязательное' },
      { id: -1, name: 'Без категории' },
    ];
    expect(updatePayload(draft)).toEqual([
      { id: 3, name: 'Навыки 2', sort_order: 0 },
      { id: 1, name: 'Обязательное', sort_order: 1 },
    ]);
  });

  it('tells whether the draft changed', () => {
    const draft = draftFrom(loaded);
    expect(draftChanged(draft, loaded)).toBe(false);
    expect(draftChanged(moveItem(draft, 1, 1), loaded)).toBe(true);
    expect(draftChanged([{ id: 1, name: 'Другое' }, ...draft.slice(1)], loaded)).toBe(true);
    expect(draftChanged([{ id: 1, name: ' Обязательное ' }, ...draft.slice(1)], loaded)).toBe(false);
  });

  it('shows the draft order and names with -1 last and unknown categories before it', () => {
    const shown = applyDraft(
      [...loaded.slice(0, 3), cat(9, 'Новая', 3), loaded[3]!],
      [
        { id: 3, name: 'Soft skills' },
        { id: 1, name: 'Обязательное' },
        { id: 2, name: 'Продукты' },
      ],
    );
    expect(shown.map((c) => [c.id, c.name])).toEqual([
      [3, 'Soft skills'],
      [1, 'Обязательное'],
      [2, 'Продукты'],
      [9, 'Новая'],
      [-1, 'Без категории'],
    ]);
  });

  it('lets only users with catalogue.manage in', () => {
    expect(canManageCatalogue(['learning', 'catalogue.manage'])).toBe(true);
    expect(canManageCatalogue(['learning', 'profile'])).toBe(false);
    expect(canManageCatalogue(undefined)).toBe(false);
  });
});
