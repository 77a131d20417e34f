import { z } from 'zod';
import { fieldChange, PERSON_FIELD_LABELS, type FieldChange } from './peopleImport.js';
import { safeText } from './common.js';
import { exportOptions } from './exports.js';

/**
 * The audit of people changes (issue 32): who added, changed or deleted an employee, and who assigned
 * a course to whom, from which screen or process. Names are recorded as they were at the time.
 */

export const AUDIT_SOURCES = ['manual', 'import', 'directory', 'sso'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];
export const AUDIT_SOURCE_LABELS: Record<AuditSource, string> = {
  manual: 'Вручную',
  import: 'Импорт из файла',
  directory: 'Синхронизация с каталогом',
  /** A person created at their first sign-in through the corporate account (OIDC_CREATE_USERS). */
  sso: 'Вход через корпоративный аккаунт',
};

export const AUDIT_ACTIONS = [
  'user_created',
  'user_updated',
  'user_deleted',
  'course_assigned',
  'course_unassigned',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  user_created: 'Сотрудник добавлен',
  user_updated: 'Сотрудник изменён',
  user_deleted: 'Сотрудник удалён',
  course_assigned: 'Курс назначен',
  course_unassigned: 'Назначение снято',
};

/** Whom a change concerns: an employee, or a department or group a course was assigned to. */
export const AUDIT_SUBJECTS = ['user', 'department', 'group'] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Who did it; null for the scheduled directory sync. */
  actor: z.string().nullable(),
  source: z.enum(AUDIT_SOURCES),
  action: z.enum(AUDIT_ACTIONS),
  subject: z.enum(AUDIT_SUBJECTS),
  subject_id: z.number().int(),
  subject_name: z.string(),
  course: z.string().nullable(),
  changes: z.array(fieldChange),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const AUDIT_PER_PAGE_DEFAULT = 50;
export const AUDIT_PER_PAGE_MAX = 200;

export const auditQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(AUDIT_PER_PAGE_MAX).optional(),
  source: z.enum(AUDIT_SOURCES).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** Part of the name of whom it concerns or who did it. */
  search: safeText(100).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  items: z.array(auditEntry),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

/** GET /api/admin/audit/export: the page's filters, every page of them, as a file. */
export const auditExportQuery = z.object({
  ...exportOptions,
  ...auditQuery.pick({ source: true, action: true, search: true }).shape,
});
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/**
 * How an entry reads on the page and in the export alike. Nobody is recorded for the scheduled
 * directory sync: it is named as the process it is.
 */
export const AUDIT_SCHEDULED_ACTOR = 'Синхронизация по расписанию';
/** An empty value in a change (a position cleared, a field a new employee did not have). */
export const AUDIT_EMPTY_VALUE = '—';

export const auditActorText = (entry: Pick<AuditEntry, 'actor'>): string => entry.actor ?? AUDIT_SCHEDULED_ACTOR;

/** Whom it concerns: an employee by name; a department or a group says which it is ('Отдел «Продажи»'). */
export function auditSubjectText(entry: Pick<AuditEntry, 'subject' | 'subject_name'>): string {
  if (entry.subject === 'department') return `Отдел «${entry.subject_name}»`;
  if (entry.subject === 'group') return `Группа «${entry.subject_name}»`;
  return entry.subject_name;
}

/** A value of a changed field as people read it: an empty one is '—'. */
export const auditValueText = (value: string | null): string =>
  value === null || value === '' ? AUDIT_EMPTY_VALUE : value;

/**
 * One changed field: 'Отдел: Продажи → Склад'. A new employee's fields had no value before, so
 * they are written as values alone ('Отдел: Продажи') rather than as a column of '— →'.
 */
export function auditChangeText(change: FieldChange, action: AuditAction): string {
  const label = PERSON_FIELD_LABELS[change.field];
  if (action === 'user_created') return `${label}: ${auditValueText(change.after)}`;
  return `${label}: ${auditValueText(change.before)} → ${auditValueText(change.after)}`;
}
