import { describe, expect, it } from 'vitest';
import { filterGroups, notFoundText } from './search';

const groups = [
  {
    id: 1,
    items: [
      { name: 'Охрана труда', description: 'Пожарная безопасность' },
      { name: 'CRM', description: '' },
    ],
  },
  { id: 2, items: [{ name: 'Переговоры', description: 'Навыки' }] },
  { id: 3, items: [] },
];

describe('filterGroups', () => {
  it('keeps everything for an empty or blank query', () => {
    expect(filterGroups(groups, '  ', (i) => [i.name])).toBe(groups);
  });
  it('matches a trimmed, case-insensitive substring and drops groups with no match', () => {
    expect(filterGroups(groups, '  оХРАНА ', (i) => [i.name])).toEqual([
      { id: 1, items: [{ name: 'Охрана труда', description: 'Пожарная безопасность' }] },
    ]);
    expect(filterGroups(groups, 'crm', (i) => [i.name]).map((g) => g.id)).toEqual([1]);
  });
  it('searches every given field', () => {
    expect(filterGroups(groups, 'навыки', (i) => [i.name]).length).toBe(0);
    expect(filterGroups(groups, 'навыки', (i) => [i.name, i.description]).map((g) => g.id)).toEqual([2]);
  });
  it('words the not-found text', () => {
    expect(notFoundText(' xyz ')).toBe('По запросу "xyz" ничего не найдено');
  });
});
