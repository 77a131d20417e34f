/* Fixtures of the analytics component tests (not part of the app bundle). */
import type { AnalyticsEmployee, AuthUser, EmployeeCourseDetail, EmployeeDetail } from '@lms/contract';
import type { Analytic } from './logic';

export const managerUser: AuthUser = {
  authenticated: true,
  id: 2,
  name: 'Соколова Ирина',
  first_name: 'Ирина',
  last_name: 'Соколова',
  must_change_password: false,
  email: 'manager@company.ru',
  role: 'manager',
  roles_ru: 'Руководитель',
  permissions: ['learning', 'profile', 'analytics.view'],
};

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

export function employee(
  id: number,
  [last_name, first_name]: [string, string],
  more: Partial<AnalyticsEmployee> = {},
): AnalyticsEmployee {
  return {
    id,
    name: `${last_name} ${first_name}`,
    first_name,
    last_name,
    email: `user${id}@company.ru`,
    department: null,
    photo: null,
    deadline: '',
    deadline_at: null,
    percent: 0,
    last_activity: null,
    course: null,
    ...more,
  };
}

export function analytic(now: Date = new Date()): Analytic {
  return {
    overdue: [
      employee(11, ['Кузнецова', 'Мария'], {
        deadline: '01.03.2026',
        deadline_at: '2026-03-01T00:00:00.000Z',
        percent: 40,
        last_activity: minutesAgo(now, 5),
        course: { id: 101, name: 'Охрана труда' },
      }),
    ],
    almost_overdue: [
      employee(12, ['Волков', 'Дмитрий'], {
        deadline: '10.03.2026',
        deadline_at: '2026-03-10T00:00:00.000Z',
        percent: 75,
        last_activity: minutesAgo(now, 3 * 60),
        course: { id: 102, name: 'Переговоры' },
      }),
    ],
    in_order: [
      employee(13, ['Морозова', 'Екатерина'], {
        deadline: '01.06.2026',
        deadline_at: '2026-06-01T00:00:00.000Z',
        percent: 100,
        last_activity: minutesAgo(now, 0),
        course: { id: 103, name: 'Продукт компании' },
      }),
      employee(14, ['Смирнов', 'Алексей'], { last_activity: null }),
      employee(15, ['Марков', 'Олег'], { last_activity: 'not a date' }),
    ],
  };
}

export const employeeDetail: EmployeeDetail = {
  id: 11,
  name: 'Кузнецова Мария',
  first_name: 'Мария',
  last_name: 'Кузнецова',
  photo: null,
  position: null,
  department: 'Отдел продаж',
  email: 'user11@company.ru',
  manager: 'Орлова Анна',
  last_activity: null,
  total_progress: 40,
  courses: [
    {
      id: 101,
      name: 'Охрана труда',
      image: null,
      category_name: 'Обязательное обучение',
      items_completed: 2,
      items_total: 5,
      progress: 40,
      is_expired: true,
      deadline: '2026-03-01T00:00:00.000Z',
    },
  ],
};

export const courseDetail: EmployeeCourseDetail = {
  id: 101,
  name: 'Охрана труда',
  description: 'Основы безопасности',
  started_at: '2026-01-10T09:00:00.000Z',
  completed_at: null,
  deadline: '2026-03-01T09:00:00.000Z',
  items_completed: 2,
  items_total: 5,
  progress: 40,
  modules: [
    {
      id: 1,
      name: 'Введение',
      items_completed: 2,
      items_total: 2,
      items: [
        { id: 1, name: 'Правила', type: 'lesson', status: 'completed' },
        { id: 2, name: 'Проверка', type: 'test', status: 'completed' },
      ],
    },
    {
      id: 2,
      name: 'Практика',
      items_completed: 0,
      items_total: 3,
      items: [
        { id: 3, name: 'Итоговый тест', type: 'test', status: 'failed' },
        { id: 4, name: 'Разбор', type: 'lesson', status: 'not_started' },
        // A SCORM package that reported failure reads as a failed test, with its score.
        { id: 5, name: 'Инструктаж', type: 'lesson', kind: 'scorm', status: 'failed', score: 40 },
      ],
    },
  ],
};
