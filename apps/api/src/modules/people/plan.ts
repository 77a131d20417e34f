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
  /** The live line manager's address, if any. */
  manager_email: string | null;
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
  /** The line manager's address: a live employee after applying, or null. */
  manager: string | null;
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
  badManager: (value: string) => `Некорректный email руководителя «${value}»`,
  unknownManager: (email: string) => `Руководитель ${email} не найден ни среди сотрудников, ни в файле`,
  selfManager: 'Сотрудник не может быть своим руководителем',
  selfRole: USER_MESSAGES.selfRole,
  selfDelete: USER_MESSAGES.selfDelete,
} as const;

const key = (text: string) => text.trim().toLowerCase();

const FIELD_RULES: Record<Exclude<PersonField, 'email' | 'role' | 'manager'>, z.ZodType<string>> = {
  last_name: safeText(100),
  first_name: safeText(100),
  department: safeText(255),
  position: safeText(255),
};
const emailRule = z.string().max(254).email();

/** The field's problem as a row shows it: the field's name, then the rule's message. */
function fieldProblem(field: PersonField, value: string): string | null {
  if (field === 'email' || field === 'role' || field === 'manager') return null;
  const checked = FIELD_RULES[field].safeParse(value);
  if (checked.success) return null;
  const message = checked.error.issues[0]?.message ?? '';
  return `${PERSON_FIELD_LABELS[field]}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}

/** A row planned but for its manager, who may be named by a row further down. */
interface Draft {
  row: PlannedRow;
  current: CurrentPerson | undefined;
  /** The manager's address the input gives ('' for none); undefined: the input has no such field. */
  manager: string | undefined;
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
  /** A new department as the first row naming it spells it. */
  const spelled = new Map<string, string>();
  const seen = new Map<string, number | null>();
  const named = new Set<number>();
  const address = (text: string) => {
    const value = key(text);
    return value !== '' && !value.includes('@') && context.emailDomain ? `${value}@${context.emailDomain}` : value;
  };

  const drafts: Draft[] = inputs.map((input) => {
    const errors: string[] = [];
    const cell = (field: PersonField) => input.cells[field] ?? '';
    const email = address(cell('email'));
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
    let manager = has('manager') ? address(cell('manager')) : undefined;
    if (manager && !emailRule.safeParse(manager).success) errors.push(PLAN_MESSAGES.badManager(cell('manager')));
    else if (manager && manager === email) {
      // The directory's own mistake is not the admin's to fix here: the person is left without one.
      if (directory) manager = '';
      else errors.push(PLAN_MESSAGES.selfManager);
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
      if (options.create_departments) department = spelled.get(key(departmentText)) ?? departmentText;
      else errors.push(PLAN_MESSAGES.unknownDepartment(departmentText));
    }
    // A directory entry may have no department (a person without one); a file's new row must name it.
    if (!current && departmentText === '' && !directory) errors.push(PLAN_MESSAGES.required('department'));

    const base = { line: input.line, email, name, user_id: current?.id ?? null, changes: [], target: null };
    const done = (row: PlannedRow): Draft => ({ row, current, manager: undefined });
    if (input.disabled) {
      // A disabled account: its person goes (softly); one the company lacks stays absent.
      if (!current) return done({ ...base, action: 'unchanged', errors: [] });
      if (current.id === context.actorId) return done({ ...base, action: 'error', errors: [PLAN_MESSAGES.selfDelete] });
      return done({ ...base, action: 'delete', errors: [] });
    }
    if (errors.length > 0) return done({ ...base, action: 'error', errors });
    if (current && current.id === context.actorId && role && role.id !== current.role_id) {
      return done({ ...base, action: 'error', errors: [PLAN_MESSAGES.selfRole] });
    }
    if (department !== null && !departmentNames.has(key(department))) spelled.set(key(department), department);

    const target: PersonTarget = {
      first_name: cell('first_name'),
      last_name: cell('last_name'),
      email,
      department: department ?? current?.department_name ?? null,
      position: has('position') ? cell('position') || null : (current?.position ?? null),
      role_id: role?.id ?? current?.role_id ?? defaultRole?.id ?? 0,
      directory_id: directory ? (input.directoryId ?? null) : null,
      manager: manager === undefined ? (current?.manager_email ?? null) : manager || null,
    };
    // The action and changes are known once the manager is (resolveManagers).
    return { row: { ...base, action: 'unchanged', errors, target }, current, manager };
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
        changes: [],
        target: null,
      };
      drafts.push({
        row:
          person.id === context.actorId
            ? { ...base, action: 'error', errors: [PLAN_MESSAGES.selfDelete] }
            : { ...base, action: 'delete', errors: [] },
        current: person,
        manager: undefined,
      });
    }
  }

  resolveManagers(drafts, context);
  // Departments are created for the rows that are written only.
  const newDepartments = new Set<string>();
  for (const { row } of drafts) {
    const department = row.target?.department;
    if (department && !departmentNames.has(key(department))) newDepartments.add(department);
  }
  const roleNames = new Map(context.roles.map((r) => [r.id, r.name]));
  const rows = drafts.map(({ row, current }) => {
    const target = row.target;
    if (!target) return row;
    const after: PersonFields = {
      last_name: target.last_name,
      first_name: target.first_name,
      email: target.email,
      department: target.department,
      position: target.position,
      role: roleNames.get(target.role_id) ?? '',
      manager: target.manager,
    };
    if (!current) return { ...row, action: 'create' as const, changes: fieldChanges({}, after) };
    const changes = fieldChanges(personFields(current), after);
    return { ...row, action: changes.length > 0 ? ('update' as const) : ('unchanged' as const), changes };
  });

  const counts: PeopleCounts = { create: 0, update: 0, unchanged: 0, delete: 0, error: 0 };
  for (const row of rows) counts[row.action]++;
  const departments = [...newDepartments];
  return { rows, counts, newDepartments: departments, fingerprint: fingerprintOf(rows, departments) };
}

function personFields(person: CurrentPerson): PersonFields {
  return {
    last_name: person.last_name,
    first_name: person.first_name,
    email: person.email,
    department: person.department_name,
    position: person.position,
    role: person.role_name,
    manager: person.manager_email,
  };
}

/**
 * Sets each row's manager to someone who is a live employee once the plan is applied: a person the
 * company keeps, or a row created or updated. An import's row naming anyone else is an error, and
 * since that error may leave another row's manager absent in turn, the check runs until nothing
 * changes; a sync leaves the person without one (the manager's entry is outside the sync or disabled).
 */
function resolveManagers(drafts: Draft[], context: PlanContext): void {
  const directory = context.source === 'directory';
  const live = (): Set<string> => {
    const out = new Set<string>();
    const replaced = new Set<number>();
    for (const { row, current } of drafts) {
      if (row.action === 'delete' && current) replaced.add(current.id);
      if (row.target) {
        out.add(row.target.email);
        if (current) replaced.add(current.id);
      }
    }
    for (const person of context.people) if (!replaced.has(person.id)) out.add(key(person.email));
    return out;
  };
  for (let changed = true; changed;) {
    changed = false;
    const emails = live();
    for (const draft of drafts) {
      const { row, manager } = draft;
      if (!row.target || !manager || emails.has(manager)) continue;
      if (directory) row.target.manager = null;
      else {
        draft.row = { ...row, action: 'error', errors: [PLAN_MESSAGES.unknownManager(manager)], target: null };
        changed = true;
      }
    }
  }
}

/** What the plan would write, as one hash: the same input against the same company gives the same. */
function fingerprintOf(rows: readonly PlannedRow[], newDepartments: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(newDepartments));
  for (const r of rows) hash.update(JSON.stringify([r.line, r.action, r.user_id, r.email, r.changes, r.errors]));
  return hash.digest('hex');
}
