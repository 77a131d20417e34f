import { roleLabels, type AuthUser, type Permission, type RoleCode } from '@lms/contract';
import type { SessionUser } from './repository.js';

/** DESIGN.md §5: admin — everything; author — catalogue and constructor; manager — analytics. */
export const ROLE_PERMISSIONS: Record<RoleCode, readonly Permission[]> = {
  admin: ['learning', 'profile', 'analytics.view', 'catalogue.manage', 'constructor.manage', 'settings.manage'],
  author: ['learning', 'profile', 'catalogue.manage', 'constructor.manage'],
  manager: ['learning', 'profile', 'analytics.view'],
  learner: ['learning', 'profile'],
};

export const fullName = (u: { first_name: string; last_name: string }): string =>
  `${u.last_name} ${u.first_name}`.trim();

export function toAuthUser(user: SessionUser | null): AuthUser {
  if (!user) {
    return { authenticated: false, id: null, name: '', email: '', role: null, roles_ru: '', permissions: [] };
  }
  return {
    authenticated: true,
    id: user.id,
    name: fullName(user),
    email: user.email,
    role: user.role,
    roles_ru: user.role_name || roleLabels[user.role],
    permissions: [...ROLE_PERMISSIONS[user.role]],
  };
}
