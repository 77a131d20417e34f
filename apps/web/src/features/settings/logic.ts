import type { AuthUser } from '@lms/contract';
import { errorStatus, isNetworkError, serverMessage } from '../../lib/errors';
import { normalizeQuery, textMatches } from '../../lib/search';
import { T } from './texts';

/** Admins manage the school settings (spec 03 §6); everyone else sees 'Доступ запрещен'. */
export function canManageSettings(user: AuthUser | undefined): boolean {
  if (!user?.authenticated) return false;
  return user.role === 'admin' || user.permissions.includes('settings.manage');
}

/** The message of a failed call for '…: {msg}' toasts: the server's, else a short description. */
export function errorText(error: unknown): string {
  const message = serverMessage(error);
  if (message) return message;
  if (isNetworkError(error)) return 'нет связи с сервером';
  const status = errorStatus(error);
  if (status) return `код ответа ${status}`;
  return error instanceof Error && error.message ? error.message : T.unknownError;
}

/** A simple e-mail shape: something@something.tld, no spaces, one '@'. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Add form: the typed local part plus the fixed '@domain' suffix (spec 03 §5). */
export function composeLogin(local: string, suffix: string): string {
  return local.trim() + suffix;
}

/**
 * Edit form: the local part plus the suffix; an address typed with '@' (e.g. an employee whose
 * existing address is in another domain) is taken as it stands.
 */
export function editLogin(value: string, suffix: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed : trimmed + suffix;
}

/** The part of a stored login shown in the field: without the suffix when it ends with it. */
export function loginLocalPart(email: string, suffix: string): string {
  if (suffix && email.toLowerCase().endsWith(suffix.toLowerCase())) return email.slice(0, -suffix.length);
  return email;
}

export interface StudentDraft {
  /** Stable React key of the block. */
  key: string;
  first_name: string;
  last_name: string;
  /** E-mail local part (the suffix is shown next to it). */
  local: string;
  position: string;
}

export type StudentField = 'first_name' | 'last_name' | 'local';

export interface StudentsProblem {
  message: string;
  /** 0-based index of the student block at fault; undefined for the shared role/department. */
  index?: number;
  fields: (StudentField | 'role' | 'department')[];
}

/**
 * Add-students validation in the order of the spec (§5): shared role and department first, then
 * each student in turn — all of first name, last name and e-mail filled, then the e-mail shape.
 */
export function validateStudents(
  roleId: string | null,
  departmentId: string | null,
  students: StudentDraft[],
  suffix: string,
): StudentsProblem | null {
  if (!roleId || !departmentId) {
    const fields: StudentsProblem['fields'] = [];
    if (!roleId) fields.push('role');
    if (!departmentId) fields.push('department');
    return { message: T.needRoleAndDepartment, fields };
  }
  for (const [index, student] of students.entries()) {
    const n = index + 1;
    const empty = (['first_name', 'last_name', 'local'] as const).filter((f) => student[f].trim() === '');
    if (empty.length > 0) return { message: T.fillStudent(n), index, fields: empty };
    if (!EMAIL_PATTERN.test(composeLogin(student.local, suffix))) {
      return { message: T.badEmailStudent(n), index, fields: ['local'] };
    }
  }
  return null;
}

export interface EditUserDraft {
  first_name: string;
  last_name: string;
  local: string;
  position: string;
  roleId: string | null;
  departmentId: string | null;
}

/** Edit-student validation (§5): role and department, all fields, then the e-mail shape. */
export function validateEditUser(draft: EditUserDraft, suffix: string): StudentsProblem | null {
  if (!draft.roleId || !draft.departmentId) {
    const fields: StudentsProblem['fields'] = [];
    if (!draft.roleId) fields.push('role');
    if (!draft.departmentId) fields.push('department');
    return { message: T.needRoleAndDepartment, fields };
  }
  const empty = (['first_name', 'last_name', 'local'] as const).filter((f) => draft[f].trim() === '');
  if (empty.length > 0) return { message: T.fillAll, fields: empty };
  if (!EMAIL_PATTERN.test(editLogin(draft.local, suffix))) return { message: T.badEmail, fields: ['local'] };
  return null;
}

/** Only the difference of two course sets is sent (spec 03 §7): what to attach and what to detach. */
export function courseDiff(
  before: readonly number[],
  after: readonly number[],
): { attach: number[]; detach: number[] } {
  const was = new Set(before);
  const now = new Set(after);
  return {
    attach: [...now].filter((id) => !was.has(id)),
    detach: [...was].filter((id) => !now.has(id)),
  };
}

/** Departments by sort_order, a missing value counting as 0; ties keep their order (spec 03 §2.2). */
export function sortDepartments<D extends { sort_order: number | null }>(items: readonly D[]): D[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.sort_order ?? 0) - (b.item.sort_order ?? 0) || a.index - b.index)
    .map(({ item }) => item);
}

/** The department sort order field: '' (none) or a non-negative integer; anything else is a message. */
export function parseSortOrder(raw: string): { value: number | null } | { error: string } {
  const text = raw.trim();
  if (text === '') return { value: null };
  if (/^-\d+$/.test(text)) return { error: T.sortOrderNegative };
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) return { error: T.sortOrderInteger };
  return { value: Number(text) };
}

/** Case-insensitive substring search over the given fields; an empty query matches everything. */
export function matchesSearch(query: string, ...fields: (string | null | undefined)[]): boolean {
  return textMatches(normalizeQuery(query), ...fields);
}

export interface LetterGroup<U> {
  letter: string;
  users: U[];
}

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

function letterRank(letter: string): number {
  if (LATIN.test(letter)) return 0;
  if (CYRILLIC.test(letter)) return 1;
  return 2;
}

/**
 * The member list of a group form (spec 03 §2.2): users grouped by the first letter of the name,
 * Latin letters first, then Cyrillic, then anything else under '#'; names sorted within a letter.
 */
export function groupByFirstLetter<U extends { name: string }>(users: readonly U[]): LetterGroup<U>[] {
  const groups = new Map<string, U[]>();
  for (const user of users) {
    const first = Array.from(user.name.trim())[0]?.toLocaleUpperCase('ru-RU') ?? '';
    const letter = first && letterRank(first) < 2 ? first : '#';
    const list = groups.get(letter);
    if (list) list.push(user);
    else groups.set(letter, [user]);
  }
  return [...groups.entries()]
    .map(([letter, list]) => ({
      letter,
      users: [...list].sort((a, b) => a.name.localeCompare(b.name, 'ru')),
    }))
    .sort((a, b) => {
      const rank = letterRank(a.letter) - letterRank(b.letter);
      if (rank !== 0) return rank;
      return a.letter.localeCompare(b.letter, letterRank(a.letter) === 0 ? 'en' : 'ru');
    });
}

/** 'Фамилия Имя' as the server writes names. */
export function displayName(first: string, last: string): string {
  return `${last.trim()} ${first.trim()}`.trim();
}
