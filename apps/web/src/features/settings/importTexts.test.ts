import { describe, expect, it } from 'vitest';
import { IMPORT_TEXTS as I } from './importTexts';

/** Every number of the import screen goes with its noun (and verb) in the right form. */
describe('the import texts', () => {
  it('agree with their numbers', () => {
    expect([1, 2, 5, 11, 21, 22].map(I.newDepartments)).toEqual([
      'Будет создан 1 отдел:',
      'Будут созданы 2 отдела:',
      'Будут созданы 5 отделов:',
      'Будут созданы 11 отделов:',
      'Будет создан 21 отдел:',
      'Будут созданы 22 отдела:',
    ]);
    expect([1, 3].map(I.createdDepartments)).toEqual(['Создан 1 отдел:', 'Созданы 3 отдела:']);
    expect([1, 4, 12].map((n) => I.errorsSkipped(n).split('.')[0])).toEqual([
      '1 строка с ошибкой будет пропущена',
      '4 строки с ошибками будут пропущены',
      '12 строк с ошибками будут пропущены',
    ]);
    expect([1, 2, 7, 101].map((n) => I.confirmDelete(n).split('.')[0])).toEqual([
      'Будет удалён 1 сотрудник, которого нет в файле',
      'Будут удалены 2 сотрудника, которых нет в файле',
      'Будут удалены 7 сотрудников, которых нет в файле',
      'Будет удалён 101 сотрудник, которого нет в файле',
    ]);
  });
});
