import type { AuthUser } from '@lms/contract';
import { errorStatus, isNetworkError, serverMessage } from '../../lib/errors';
import { normalizeQuery, textMatches } from '../../lib/search';
import { T } from './texts';

/** Admins manage the school settings (docs/product.md §Settings); everyone else sees 'Доступ запрещен'. */
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

/** Add form: the typed local part plus the fixed '@domain' suffix (docs/product.md §Settings). */
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

/** A field to mark: of one student block (0-based `index`), or the shared role or department. */
export type FieldMark = { index: number; field: StudentField } | { index?: undefined; field: 'role' | 'department' };

export interface StudentsProblem {
  /** The one toast: the first problem in the order of docs/product.md §Settings. */
  message: string;
  /** Every field at fault, marked at once (issue 30): empty required fields and malformed e-mails. */
  marks: FieldMark[];
}

const REQUIRED: readonly StudentField[] = ['first_name', 'last_name', 'local'];

/**
 * Add-students validation. Every empty required field (the shared role and department, each
 * student's first name, last name and e-mail) and every malformed e-mail is marked at once; the
 * toast names the first problem in the order of docs/product.md §Settings: role and department, then the
 * first student with an empty field, then the first malformed e-mail.
 */
export function validateStudents(
  roleId: string | null,
  departmentId: string | null,
  students: StudentDraft[],
  suffix: string,
): StudentsProblem | null {
  const marks: FieldMark[] = [];
  if (!roleId) marks.push({ field: 'role' });
  if (!departmentId) marks.push({ field: 'department' });
  let firstEmpty: number | undefined;
  let firstBadEmail: number | undefined;
  for (const [index, student] of students.entries()) {
    const empty = REQUIRED.filter((f) => student[f].trim() === '');
    if (empty.length > 0) firstEmpty ??= index;
    marks.push(...empty.map((field) => ({ index, field })));
    if (student.local.trim() !== '' && !EMAIL_PATTERN.test(composeLogin(student.local, suffix))) {
      firstBadEmail ??= index;
      marks.push({ index, field: 'local' });
    }
  }
  if (marks.length === 0) return null;
  const message =
    !roleId || !departmentId
      ? T.needRoleAndDepartment
      : firstEmpty !== undefined
        ? T.fillStudent(firstEmpty + 1)
        : T.badEmailStudent((firstBadEmail ?? 0) + 1);
  return { message, marks };
}

/** Whether `mark` is among the marks (the same field of the same block). */
export const isMarked = (marks: readonly FieldMark[], mark: FieldMark): boolean =>
  marks.some((m) => m.field === mark.field && m.index === mark.index);

/** The marks without one field: the user has changed it. */
export const unmark = (marks: readonly FieldMark[], mark: FieldMark): FieldMark[] =>
  marks.filter((m) => !(m.field === mark.field && m.index === mark.index));

export interface EditUserDraft {
  first_name: string;
  last_name: string;
  local: string;
  position: string;
  roleId: string | null;
  departmentId: string | null;
}

export type EditUserField = StudentField | 'role' | 'department';

/**
 * Edit-student validation (docs/product.md §Settings): every empty required field and a malformed e-mail marked at once;
 * the toast names the first problem: role and department, all fields, then the e-mail shape.
 */
export function validateEditUser(
  draft: EditUserDraft,
  suffix: string,
): { message: string; fields: EditUserField[] } | null {
  const fields: EditUserField[] = [];
  if (!draft.roleId) fields.push('role');
  if (!draft.departmentId) fields.push('department');
  const empty = REQUIRED.filter((f) => draft[f].trim() === '');
  fields.push(...empty);
  const badEmail = draft.local.trim() !== '' && !EMAIL_PATTERN.test(editLogin(draft.local, suffix));
  if (badEmail) fields.push('local');
  if (fields.length === 0) return null;
  const message =
    !draft.roleId || !draft.departmentId ? T.needRoleAndDepartment : empty.length > 0 ? T.fillAll : T.badEmail;
  return { message, fields };
}

/** Only the difference of two course sets is sent (docs/product.md §Settings): what to attach and what to detach. */
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

/** Departments by sort_order, a missing value counting as 0; ties keep their order (docs/product.md §Settings). */
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
 * The member list of a group form (docs/product.md §Settings): users grouped by the first letter of the name,
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
