import { can } from '../../platform/access.js';
import type { SessionUser } from '../../platform/sessions.js';

/**
 * Whose learning a viewer follows (docs/rules.md §Analytics): an admin the whole company, a manager
 * the other live people of their own department (nobody without one), anyone else nobody.
 */
export type Team =
  { kind: 'company' } | { kind: 'department'; departmentId: number; except: number } | { kind: 'nobody' };

export function teamOf(viewer: SessionUser): Team {
  if (can(viewer.role, 'settings.manage')) return { kind: 'company' };
  if (!can(viewer.role, 'analytics.view') || viewer.department_id === null) return { kind: 'nobody' };
  return { kind: 'department', departmentId: viewer.department_id, except: viewer.id };
}

/** Whether a user (id and department) is in a viewer's team. */
export function inTeam(team: Team, user: { id: number; department_id: number | null }): boolean {
  if (team.kind === 'company') return true;
  return team.kind === 'department' && user.department_id === team.departmentId && user.id !== team.except;
}
