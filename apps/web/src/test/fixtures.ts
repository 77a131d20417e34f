import type { AuthUser, ConstructorCourse, CourseAssignment, HomeCourse, MenuItem } from '@lms/contract';

export const adminUser: AuthUser = {
  authenticated: true,
  id: 1,
  name: 'Петрова Мария Сергеевна',
  first_name: 'Мария',
  last_name: 'Петрова',
  email: 'petrova@company.ru',
  role: 'admin',
  roles_ru: 'Администратор',
  permissions: ['learning', 'profile', 'settings.manage'],
  must_change_password: false,
};

export const learnerUser: AuthUser = {
  authenticated: true,
  id: 7,
  name: 'Смирнов Алексей',
  first_name: 'Алексей',
  last_name: 'Смирнов',
  email: 'learner@company.ru',
  role: 'learner',
  roles_ru: 'Ученик',
  permissions: ['learning', 'profile'],
  must_change_password: false,
};

/** An author of courses: the catalogue and the constructor, no settings. */
export const authorUser: AuthUser = {
  authenticated: true,
  id: 2,
  name: 'Васильева Елена',
  first_name: 'Елена',
  last_name: 'Васильева',
  must_change_password: false,
  email: 'author@company.ru',
  role: 'author',
  roles_ru: 'Автор курсов',
  permissions: ['learning', 'profile', 'catalogue.manage', 'constructor.manage'],
};

/** A course card as the home list and the catalogue send it: no counts, deadline or progress. */
export function courseCard(over: Partial<HomeCourse> & Pick<HomeCourse, 'id' | 'name'>): HomeCourse {
  return {
    image: null,
    url: `/courses/${over.id}`,
    groups: 0,
    students: 0,
    deadline: null,
    deadline_status: null,
    lessons: { total: 0, completed: 0 },
    test: { total: 0, completed: 0 },
    progress: 0,
    complete: false,
    ...over,
  };
}

export const menuItems: MenuItem[] = [
  { name: 'Главная', link: '/', icon: 'home', 'icon-active': 'home-active' },
  { name: 'Профиль', link: '/profile', icon: 'profile', 'icon-active': 'profile-active' },
  { name: 'Аналитика', link: '/analytics', icon: 'analytics', 'icon-active': 'analytics-active' },
  { name: 'Управление курсами', link: '/management', icon: 'management', 'icon-active': 'management-active' },
  { name: 'Настройки', link: '/settings', icon: 'settings', 'icon-active': 'settings-active' },
];

/** A course as the constructor reads it ('Продажи', no deadline, open to everyone), with any changes. */
export function constructorCourse(over: Partial<ConstructorCourse> = {}): ConstructorCourse {
  return {
    id: 7,
    title: 'Продажи',
    description: '',
    image: null,
    is_published: false,
    has_deadline: false,
    deadline_type: 'from_enrollment',
    deadline_value: 30,
    deadline_unit: 'days',
    deadline_warning_days: 3,
    has_recurrence: false,
    recurrence_value: 365,
    recurrence_unit: 'days',
    accessibility: 'everyone',
    ...over,
  };
}

/** A course's 'Назначение' (GET /api/courses/7/assignment): nobody yet, with any changes. */
export function courseAssignment(over: Partial<CourseAssignment> = {}): CourseAssignment {
  return {
    course: { id: 7, name: 'Продажи' },
    learners: 0,
    departments: [],
    groups: [],
    users: [],
    users_total: 0,
    choices: { departments: [], groups: [] },
    ...over,
  };
}
