import { PERSON_FIELD_LABELS, PERSON_FIELDS, type ExportFormat } from '@lms/contract';
import type { CellSheet } from '../exports/writer.js';

const WIDTHS = {
  last_name: 20,
  first_name: 16,
  email: 32,
  department: 24,
  position: 24,
  role: 18,
  manager: 32,
} as const;

/** How to fill the template in: the second sheet of the .xlsx one. */
export const TEMPLATE_HELP = [
  'Одна строка — один сотрудник. Первая строка — заголовки столбцов, их порядок может быть любым.',
  'Обязательные столбцы: Фамилия, Имя, Email, Отдел. Должность, Роль и Email руководителя можно не заполнять.',
  'Email — логин сотрудника. Если сотрудник с таким email уже есть, его данные обновятся; иначе он будет добавлен.',
  'Отдел — название отдела, как в настройках школы. Новые отделы создаются, если отметить «Создавать отделы».',
  'Роль — одна из: Администратор, Автор курсов, Руководитель, Ученик. Пустая роль: новому сотруднику — Ученик, у остальных не меняется.',
  'Email руководителя — email непосредственного руководителя: сотрудника школы или из этого же файла. Пустая ячейка: руководителя нет. Без этого столбца руководители не меняются.',
  'Формулы и объединённые ячейки не допускаются. Можно загрузить и файл .csv (UTF-8 или Windows-1251, разделитель «;» или «,»).',
];

async function* once<T>(rows: readonly T[]) {
  yield rows;
}

/** The import template: the columns' headers (and, in .xlsx, a sheet on how to fill them in). */
export function templateSheets(format: ExportFormat): CellSheet[] {
  const people: CellSheet = {
    name: 'Сотрудники',
    columns: PERSON_FIELDS.map((f) => ({ header: PERSON_FIELD_LABELS[f], kind: 'text' as const, width: WIDTHS[f] })),
    rows: once([]),
  };
  if (format === 'csv') return [people];
  const help: CellSheet = {
    name: 'Как заполнить',
    columns: [{ header: 'Как заполнить шаблон', kind: 'text', width: 110 }],
    rows: once(TEMPLATE_HELP.map((text) => [text])),
  };
  return [people, help];
}
