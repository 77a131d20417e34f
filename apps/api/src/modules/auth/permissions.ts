import { guestUser, roleLabels, type AuthUser } from '@lms/contract';
import { ROLE_PERMISSIONS } from '../../platform/access.js';
import type { SessionUser } from '../../platform/sessions.js';

export const fullName = (u: { first_name: string; last_name: string }): string =>
  `${u.last_name} ${u.first_name}`.trim();

export function toAuthUser(user: SessionUser | null): AuthUser {
  if (!user) return { ...guestUser, permissions: [] };
  return {
    authenticated: true,
    id: user.id,
    name: fullName(user),
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    role: user.role,
    roles_ru: user.role_name || roleLabels[user.role],
    permissions: [...ROLE_PERMISSIONS[user.role]],
    must_change_password: user.must_change_password,
  };
}
