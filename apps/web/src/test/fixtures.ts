import type { AuthUser, MenuItem } from '@lms/contract';

export const adminUser: AuthUser = {
  authenticated: true,
  id: 1,
  name: 'Петрова Мария Сергеевна',
  email: 'petrova@company.ru',
  role: 'admin',
  roles_ru: 'Администратор',
  permissions: ['learning', 'profile', 'settings.manage'],
};

export const menuItems: MenuItem[] = [
  { name: 'Главная', link: '/', icon: 'home', 'icon-active': 'home-active' },
  { name: 'Профиль', link: '/profile', icon: 'profile', 'icon-active': 'profile-active' },
  { name: 'Аналитика', link: '/analytics', icon: 'analytics', 'icon-active': 'analytics-active' },
  { name: 'Управление курсами', link: '/management', icon: 'management', 'icon-active': 'management-active' },
  { name: 'Настройки', link: '/settings', icon: 'settings', 'icon-active': 'settings-active' },
];
