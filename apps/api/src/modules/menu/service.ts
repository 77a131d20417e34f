import type { MenuItem, RoleCode } from '@lms/contract';

const item = (name: string, link: string, icon: string): MenuItem => ({
  name,
  link,
  icon,
  'icon-active': `${icon}-active`,
});

const HOME = item('Главная', '/', 'home');
const ANALYTICS = item('Аналитика', '/analytics', 'analytics');
const MANAGEMENT = item('Управление курсами', '/management', 'management');
const SETTINGS = item('Настройка школы', '/settings', 'settings');
const PROFILE = item('Мой профиль', '/profile', 'profile');

/** The side menu of each role (issue 2): learner — home and profile; each other role adds its areas. */
const MENUS: Record<RoleCode, MenuItem[]> = {
  learner: [HOME, PROFILE],
  manager: [HOME, ANALYTICS, PROFILE],
  author: [HOME, MANAGEMENT, PROFILE],
  admin: [HOME, ANALYTICS, MANAGEMENT, SETTINGS, PROFILE],
};

export const menuFor = (role: RoleCode): MenuItem[] => MENUS[role];
