import { EMPLOYEE_DATIVE_FORMS, EMPLOYEE_FORMS } from '@lms/contract';
import { formatCount } from '../../lib/plural';

/**
 * The texts of a course's 'Назначение' (docs/product.md §Course settings). Success texts come from the
 * server ('Курс назначен отделу «Продажи»'); these are the section's own.
 */
export const AT = {
  section: 'Назначение',
  intro: 'Отделы, группы и сотрудники, которым назначен курс. Изменения применяются сразу.',
  total: (n: number) =>
    n === 0 ? 'Курс пока никому не назначен' : `Всего назначено ${formatCount(n, EMPLOYEE_DATIVE_FORMS)}`,
  loading: 'Загрузка назначений...',
  loadError: 'Не удалось загрузить назначения курса',
  retry: 'Повторить',
  changeError: 'Не удалось изменить назначение',

  departments: 'Отделы',
  groups: 'Группы',
  users: 'Сотрудники',
  /** 'Продажи · 12 сотрудников' */
  members: (n: number) => formatCount(n, EMPLOYEE_FORMS),
  noDepartments: 'Курс не назначен ни одному отделу',
  noGroups: 'Курс не назначен ни одной группе',
  noUsers: 'Курс не назначен сотрудникам напрямую',
  usersShown: (shown: number, total: number) =>
    `Показаны первые ${shown} из ${formatCount(total, EMPLOYEE_FORMS)} (по алфавиту)`,

  addDepartments: 'Добавить отделы',
  addGroups: 'Добавить группы',
  addUsers: 'Добавить сотрудников',
  chooseDepartments: 'Выберите отделы',
  chooseGroups: 'Выберите группы',
  findUsers: 'Имя или почта',
  assign: 'Назначить',
  noDepartmentsLeft: 'Других отделов нет',
  noGroupsLeft: 'Других групп нет',
  nobodyFound: 'Никого не нашли',
  searching: 'Поиск...',
  alreadyAssigned: 'уже назначен',

  remove: (name: string) => `Снять назначение: ${name}`,
  removeConfirm: 'Снять назначение',
  cancel: 'Отмена',
  removeDepartmentTitle: 'Снять назначение с отдела',
  removeDepartmentQuestion: (name: string) => `Снять курс с отдела «${name}»?`,
  removeDepartmentWarning: 'Сотрудники отдела потеряют доступ к курсу, их прогресс сохранится',
  removeGroupTitle: 'Снять назначение с группы',
  removeGroupQuestion: (name: string) => `Снять курс с группы «${name}»?`,
  removeGroupWarning: 'Участники группы потеряют доступ к курсу, их прогресс сохранится',
};
