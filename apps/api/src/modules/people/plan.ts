import { createHash } from 'node:crypto';
import {
  PERSON_FIELD_LABELS,
  safeText,
  type FieldChange,
  type PeopleAction,
  type PeopleCounts,
  type PeopleImportOptions,
  type PersonField,
} from '@lms/contract';
import { z } from 'zod';
import { fieldChanges, type PersonFields } from '../audit/changes.js';
import { USER_MESSAGES } from '../users/service.js';

/**
 * What an import or a sync would do (docs/rules.md §Importing people): a pure function of the people
 * given, the company as it is and the admin's choices. The dry run shows it; applying computes it
 * again from the same input and must come to the same `fingerprint`, or nothing is written.
 */

/** A person as a file's row or a directory entry gives them (cells trimmed, '' when empty). */
export interface PersonInput {
  line: number | null;
  cells: Partial<Record<PersonField, string>>;
  /** A directory entry's lasting id (its objectGUID or entryUUID): what a sync matches people by. */
  directoryId?: string;
  /** A disabled directory account: its person is deleted, and none is created for it. */
  disabled?: boolean;
}

/** A live employee as the plan compares them. */
export interface CurrentPerson {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  position: string | null;
  department_id: number | null;
  department_name: string | null;
  role_id: number;
  role_name: string;
  /** Set for a person who came from the directory: only a sync changes their synced fields. */
  directory_id: string | null;
}

export interface PlanContext {
  /** An import matches people by address and never touches the directory's; a sync matches by id. */
  source: 'import' | 'directory';
  people: readonly CurrentPerson[];
  departments: readonly { id: number; name: string }[];
  roles: readonly { id: number; code: string; name: string }[];
  /** The role a new person gets when the row names none. */
  defaultRoleCode: string;
  /** Who applies it: their own role is not changed and they are not deleted. */
  actorId: number | null;
  options: PeopleImportOptions;
  /** The fields the input has: a field it lacks stays as it is. */
  columns: readonly PersonField[];
  /** Appended to a login without '@' (PEOPLE_EMAIL_DOMAIN); none: a login must be a whole address. */
  emailDomain: string | null;
}

/** What a created or updated person becomes; the department by name (it may be created first). */
export interface PersonTarget {
  first_name: string;
  last_name: string;
  email: string;
  /** Null only for an existing person without one whose row names none. */
  department: string | null;
  position: string | null;
  role_id: number;
  directory_id: string | null;
}

export interface PlannedRow {
  line: number | null;
  action: PeopleAction;
  email: string;
  name: string;
  user_id: number | null;
  changes: FieldChange[];
  errors: string[];
  target: PersonTarget | null;
}

export interface Plan {
  rows: PlannedRow[];
  counts: PeopleCounts;
  newDepartments: string[];
  fingerprint: string;
}

export const PLAN_MESSAGES = {
  required: (field: PersonField) => `Не заполнено: ${PERSON_FIELD_LABELS[field]}`,
  badEmail: (value: string) => `Некорректный email «${value}»`,
  duplicate: (email: string, line: number | null) =>
    `Email ${email} уже встречается${line === null ? ' в файле' : ` в строке ${line}`}`,
  unknownRole: (value: string, names: string[]) => `Неизвестная роль «${value}». Допустимые роли: ${names.join(', ')}`,
  unknownDepartment: (value: string) =>
    `Отдел «${value}» не найден. Отметьте «Создавать отделы» или добавьте отдел в настройках школы`,
  fromDirectory: 'Сотрудник синхронизируется с каталогом: его данные меняются только в каталоге',
  addedByHand: 'Сотрудник с таким email добавлен вручную: синхронизация с каталогом его не меняет',
  selfRole: USER_MESSAGES.selfRole,
  selfDelete: USER_MESSAGES.selfDelete,
} as const;

const key = (text: string) => text.trim().toLowerCase();

const FIELD_RULES: Record<Exclude<PersonField, 'email' | 'role'>, z.ZodType<string>> = {
  last_name: safeText(100),
  first_name: safeText(100),
  department: safeText(255),
  position: safeText(255),
};
const emailRule = z.string().max(254).email();

/** The field's problem as a row shows it: the field's name, then the rule's message. */
function fieldProblem(field: PersonField, value: string): string | null {
  if (field === 'email' || field === 'role') return null;
  const checked = FIELD_RULES[field].safeParse(value);
  if (checked.success) return null;
  const message = checked.error.issues[0]?.message ?? '';
  return `${PERSON_FIELD_LABELS[field]}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}

export function planPeople(inputs: readonly PersonInput[], context: PlanContext): Plan {
  const { options } = context;
  const has = (field: PersonField) => context.columns.includes(field);
  const directory = context.source === 'directory';
  const byEmail = new Map(context.people.map((p) => [key(p.email), p]));
  const byDirectoryId = new Map(context.people.flatMap((p) => (p.directory_id ? [[p.directory_id, p] as const] : [])));
  const departmentNames = new Map(context.departments.map((d) => [key(d.name), d.name]));
  const roleOf = new Map(context.roles.flatMap((r) => [[key(r.name), r] as const, [key(r.code), r] as const]));
  const defaultRole = context.roles.find((r) => r.code === context.defaultRoleCode);
  const newDepartments = new Map<string, string>();
  const seen = new Map<string, number | null>();
  const named = new Set<number>();

  const rows: PlannedRow[] = inputs.map((input) => {
    const errors: string[] = [];
    const cell = (field: PersonField) => input.cells[field] ?? '';
    let email = key(cell('email'));
    if (email !== '' && !email.includes('@') && context.emailDomain) email = `${email}@${context.emailDomain}`;
    const name = `${cell('last_name')} ${cell('first_name')}`.trim();
    for (const field of ['last_name', 'first_name', 'email'] as const) {
      if (cell(field) === '') errors.push(PLAN_MESSAGES.required(field));
    }
    if (email !== '' && !emailRule.safeParse(email).success) errors.push(PLAN_MESSAGES.badEmail(cell('email')));
    for (const field of ['last_name', 'first_name', 'department', 'position'] as const) {
      const problem = cell(field) === '' ? null : fieldProblem(field, cell(field));
      if (problem) errors.push(problem);
    }
    if (email !== '') {
      if (seen.has(email)) errors.push(PLAN_MESSAGES.duplicate(email, seen.get(email) ?? null));
      else seen.set(email, input.line);
    }
    const sameEmail = byEmail.get(email);
    const current = directory ? byDirectoryId.get(input.directoryId ?? '') : sameEmail;
    if (current) named.add(current.id);
    if (!directory && current?.directory_id) errors.push(PLAN_MESSAGES.fromDirectory);
    if (directory && sameEmail && sameEmail !== current) {
      errors.push(sameEmail.directory_id ? PLAN_MESSAGES.duplicate(email, null) : PLAN_MESSAGES.addedByHand);
    }

    const roleText = cell('role');
    const role = roleText === '' ? undefined : roleOf.get(key(roleText));
    if (roleText !== '' && !role) {
      errors.push(
        PLAN_MESSAGES.unknownRole(
          roleText,
          context.roles.map((r) => r.name),
        ),
      );
    }
    const departmentText = cell('department');
    let department = departmentText === '' ? null : (departmentNames.get(key(departmentText)) ?? null);
    if (departmentText !== '' && department === null) {
      if (options.create_departments) department = newDepartments.get(key(departmentText)) ?? departmentText;
      else errors.push(PLAN_MESSAGES.unknownDepartment(departmentText));
    }
    // A directory entry may have no department (a person without one); a file's new row must name it.
    if (!current && departmentText === '' && !directory) errors.push(PLAN_MESSAGES.required('department'));

    const base = { line: input.line, email, name, user_id: current?.id ?? null };
    if (input.disabled) {
      // A disabled account: its person goes (softly); one the company lacks stays absent.
      if (!current) return { ...base, action: 'unchanged', changes: [], errors: [], target: null };
      if (current.id === context.actorId)
        return { ...base, action: 'error', changes: [], errors: [PLAN_MESSAGES.selfDelete], target: null };
      return { ...base, action: 'delete', changes: [], errors: [], target: null };
    }
    if (errors.length > 0) return { ...base, action: 'error', changes: [], errors, target: null };
    if (department !== null && !departmentNames.has(key(department))) newDepartments.set(key(department), department);

    const target: PersonTarget = {
      first_name: cell('first_name'),
      last_name: cell('last_name'),
      email,
      department: department ?? current?.department_name ?? null,
      position: has('position') ? cell('position') || null : (current?.position ?? null),
      role_id: role?.id ?? current?.role_id ?? defaultRole?.id ?? 0,
      directory_id: directory ? (input.directoryId ?? null) : null,
    };
    const roleName = role?.name ?? current?.role_name ?? defaultRole?.name ?? '';
    const after: PersonFields = {
      last_name: target.last_name,
      first_name: target.first_name,
      email: target.email,
      department: target.department,
      position: target.position,
      role: roleName,
    };
    if (!current) return { ...base, action: 'create', changes: fieldChanges({}, after), errors, target };
    if (current.id === context.actorId && target.role_id !== current.role_id) {
      return { ...base, action: 'error', changes: [], errors: [PLAN_MESSAGES.selfRole], target: null };
    }
    const before: PersonFields = {
      last_name: current.last_name,
      first_name: current.first_name,
      email: current.email,
      department: current.department_name,
      position: current.position,
      role: current.role_name,
    };
    const changes = fieldChanges(before, after);
    return { ...base, action: changes.length > 0 ? 'update' : 'unchanged', changes, errors, target };
  });

  if (options.delete_missing) {
    for (const person of context.people) {
      // An import deletes none of the directory's people, a sync none added by hand.
      if (named.has(person.id) || (person.directory_id !== null) !== directory) continue;
      const base = {
        line: null,
        email: person.email,
        name: `${person.last_name} ${person.first_name}`,
        user_id: person.id,
      };
      rows.push(
        person.id === context.actorId
          ? { ...base, action: 'error', changes: [], errors: [PLAN_MESSAGES.selfDelete], target: null }
          : { ...base, action: 'delete', changes: [], errors: [], target: null },
      );
    }
  }

  const counts: PeopleCounts = { create: 0, update: 0, unchanged: 0, delete: 0, error: 0 };
  for (const row of rows) counts[row.action]++;
  const departments = [...newDepartments.values()];
  return { rows, counts, newDepartments: departments, fingerprint: fingerprintOf(rows, departments) };
}

/** What the plan would write, as one hash: the same input against the same company gives the same. */
function fingerprintOf(rows: readonly PlannedRow[], newDepartments: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(newDepartments));
  for (const r of rows) hash.update(JSON.stringify([r.line, r.action, r.user_id, r.email, r.changes, r.errors]));
  return hash.digest('hex');
}
