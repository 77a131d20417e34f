import { describe, expect, it } from 'vitest';
import { adminUser } from '../../test/fixtures';
import { parseCourseChoices } from './queries';
import {
  canManageSettings,
  composeLogin,
  courseDiff,
  editLogin,
  groupByFirstLetter,
  loginLocalPart,
  matchesSearch,
  parseSortOrder,
  sortDepartments,
  validateEditUser,
  validateStudents,
  type StudentDraft,
} from './logic';
import { sanitizeCell } from './SafeHtml';

const student = (over: Partial<StudentDraft> = {}): StudentDraft => ({
  key: 'k',
  first_name: 'Ольга',
  last_name: 'Орлова',
  local: 'orlova',
  position: '',
  ...over,
});

describe('validateStudents', () => {
  const suffix = '@company.ru';
  it('wants the shared role and department first', () => {
    expect(validateStudents(null, '1', [student()], suffix)?.message).toBe('Пожалуйста, выберите роль и отдел');
    expect(validateStudents('1', null, [student({ first_name: '' })], suffix)?.message).toBe(
      'Пожалуйста, выберите роль и отдел',
    );
  });
  it('numbers the student at fault from 1, in form order', () => {
    const list = [student(), student({ last_name: '  ' }), student({ local: '' })];
    expect(validateStudents('1', '2', list, suffix)).toEqual({
      message: 'Пожалуйста, заполните все поля у ученика #2',
      marks: [
        { index: 1, field: 'last_name' },
        { index: 2, field: 'local' },
      ],
    });
    expect(validateStudents('1', '2', [student(), student({ local: 'bad local' })], suffix)?.message).toBe(
      'Некорректный email у ученика #2',
    );
    expect(validateStudents('1', '2', [student({ local: 'a@b' })], suffix)?.message).toBe(
      'Некорректный email у ученика #1',
    );
  });
  it('marks every empty required field and malformed e-mail at once (issue 30)', () => {
    const list = [student({ first_name: '', local: 'bad local' }), student({ last_name: '', local: '' })];
    expect(validateStudents(null, null, list, suffix)).toEqual({
      message: 'Пожалуйста, выберите роль и отдел',
      marks: [
        { field: 'role' },
        { field: 'department' },
        { index: 0, field: 'first_name' },
        { index: 0, field: 'local' },
        { index: 1, field: 'last_name' },
        { index: 1, field: 'local' },
      ],
    });
  });
  it('accepts filled students (position optional)', () => {
    expect(validateStudents('1', '2', [student(), student({ local: 'p.sedov' })], suffix)).toBeNull();
  });
});

describe('logins', () => {
  it('is the local part plus the domain suffix', () => {
    expect(composeLogin(' o.orlova ', '@company.ru')).toBe('o.orlova@company.ru');
    expect(editLogin('ivanov', '@company.ru')).toBe('ivanov@company.ru');
    expect(editLogin('boss@other.org', '@company.ru')).toBe('boss@other.org');
    expect(loginLocalPart('Ivanov@Company.ru', '@company.ru')).toBe('Ivanov');
    expect(loginLocalPart('boss@other.org', '@company.ru')).toBe('boss@other.org');
  });
  it('checks the edit form: role and department, all fields, e-mail', () => {
    const draft = { first_name: 'И', last_name: 'И', local: 'i', position: '', roleId: '1', departmentId: '2' };
    expect(validateEditUser(draft, '@c.ru')).toBeNull();
    expect(validateEditUser({ ...draft, departmentId: null }, '@c.ru')?.message).toBe(
      'Пожалуйста, выберите роль и отдел',
    );
    expect(validateEditUser({ ...draft, first_name: '' }, '@c.ru')?.message).toBe('Пожалуйста, заполните все поля');
    expect(validateEditUser({ ...draft, local: 'i@' }, '@c.ru')?.message).toBe('Некорректный email');
    expect(validateEditUser({ ...draft, roleId: null, first_name: ' ', local: '' }, '@c.ru')).toEqual({
      message: 'Пожалуйста, выберите роль и отдел',
      fields: ['role', 'first_name', 'local'],
    });
  });
});

describe('courseDiff', () => {
  it('sends only what was added and what was removed', () => {
    expect(courseDiff([1, 2, 3], [2, 3, 4, 5])).toEqual({ attach: [4, 5], detach: [1] });
    expect(courseDiff([1, 2], [2, 1])).toEqual({ attach: [], detach: [] });
    expect(courseDiff([], [7])).toEqual({ attach: [7], detach: [] });
  });
});

describe('sortDepartments', () => {
  it('sorts by sort_order with a missing value counting as 0, keeping ties in order', () => {
    const list = [
      { id: 1, sort_order: 2 },
      { id: 2, sort_order: null },
      { id: 3, sort_order: 0 },
      { id: 4, sort_order: 1 },
      { id: 5, sort_order: null },
    ];
    expect(sortDepartments(list).map((d) => d.id)).toEqual([2, 3, 5, 4, 1]);
  });
});

describe('groupByFirstLetter', () => {
  it('groups by the first letter, Latin letters first, then Cyrillic, then the rest', () => {
    const groups = groupByFirstLetter([
      { name: 'Иванов Иван' },
      { name: 'smith John' },
      { name: 'Ёлкин Пётр' },
      { name: 'Абрамова Анна' },
      { name: '1С Бот' },
      { name: 'Adams Kate' },
      { name: 'Алексеев Олег' },
      { name: 'Brown Bob' },
    ]);
    expect(groups.map((g) => g.letter)).toEqual(['A', 'B', 'S', 'А', 'Ё', 'И', '#']);
    expect(groups[3]?.users.map((u) => u.name)).toEqual(['Абрамова Анна', 'Алексеев Олег']);
  });
});

describe('search, access, sanitizing, course list', () => {
  it('matches a case-insensitive substring of any field', () => {
    expect(matchesSearch('ИВАН', 'Иванов Иван', 'x@y.ru')).toBe(true);
    expect(matchesSearch('Y.RU', 'Иванов Иван', 'x@y.ru')).toBe(true);
    expect(matchesSearch('петр', 'Иванов Иван', null)).toBe(false);
    expect(matchesSearch('  ', 'что угодно')).toBe(true);
  });
  it('lets only admins in', () => {
    expect(canManageSettings(adminUser)).toBe(true);
    expect(canManageSettings({ ...adminUser, role: 'learner', permissions: ['learning'] })).toBe(false);
    expect(canManageSettings({ ...adminUser, role: 'manager', permissions: ['analytics.view'] })).toBe(false);
    expect(canManageSettings(undefined)).toBe(false);
  });
  it('keeps inline formatting and drops scripts and handlers', () => {
    expect(sanitizeCell('<b>Жирный</b><img src=x onerror=alert(1)><script>x()</script>')).toBe('<b>Жирный</b>');
    expect(sanitizeCell('A &amp; B')).toBe('A &amp; B');
    expect(sanitizeCell(null)).toBe('');
  });
  it('flattens the catalogue into course choices with their category', () => {
    const data = {
      result: {
        success: true,
        items: [
          { id: 1, name: 'Обязательное', items: [{ id: 10, name: 'Охрана труда' }] },
          {
            id: -1,
            name: 'Без категории',
            items: [
              { id: 11, name: 'Продукт' },
              { id: 10, name: 'дубль' },
            ],
          },
        ],
      },
    };
    expect(parseCourseChoices(data)).toEqual([
      { id: 10, name: 'Охрана труда', category: 'Обязательное' },
      { id: 11, name: 'Продукт', category: 'Без категории' },
    ]);
    expect(() => parseCourseChoices({ result: {} })).toThrow();
  });
  it('reads the sort order as an optional non-negative integer', () => {
    expect(parseSortOrder('')).toEqual({ value: null });
    expect(parseSortOrder(' 3 ')).toEqual({ value: 3 });
    expect(parseSortOrder('-1')).toEqual({ error: 'Порядок сортировки не может быть отрицательным' });
    expect(parseSortOrder('1.5')).toEqual({ error: 'Порядок сортировки должен быть целым числом' });
  });
});
