import { z } from 'zod';
import { idParam } from './common.js';
import { EXPORT_FORMATS } from './exports.js';

/**
 * Employees changed in bulk (issue 32): a spreadsheet import or a directory sync is first a dry run
 * (a batch: every row with what would happen to it), then, on request, applied as previewed.
 */

export const PEOPLE_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const PEOPLE_IMPORT_MAX_ROWS = 50_000;

/**
 * The fields of a person a file or the directory gives. The manager is their line manager, named by
 * address: a fact shown on the person's cards (whose learning a manager follows is their department).
 */
export const PERSON_FIELDS = ['last_name', 'first_name', 'email', 'department', 'position', 'role', 'manager'] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];

/** How each field is called in the template and on screen. */
export const PERSON_FIELD_LABELS: Record<PersonField, string> = {
  last_name: 'Фамилия',
  first_name: 'Имя',
  email: 'Email',
  department: 'Отдел',
  position: 'Должность',
  role: 'Роль',
  manager: 'Email руководителя',
};

/**
 * Column headers a file may use for each field, lower-cased: matched by name whatever their order
 * and case, so a company's own export loads as it is.
 */
export const PERSON_FIELD_HEADERS: Record<PersonField, readonly string[]> = {
  last_name: ['фамилия', 'last name', 'last_name', 'surname'],
  first_name: ['имя', 'first name', 'first_name', 'name'],
  email: ['email', 'e-mail', 'почта', 'эл. почта', 'электронная почта', 'логин', 'login'],
  department: ['отдел', 'подразделение', 'department'],
  position: ['должность', 'position', 'title'],
  role: ['роль', 'role'],
  manager: [
    'email руководителя',
    'руководитель',
    'руководитель (email)',
    'непосредственный руководитель',
    'manager',
    'manager email',
    'manager_email',
  ],
};
export const REQUIRED_PERSON_FIELDS: readonly PersonField[] = ['last_name', 'first_name', 'email', 'department'];

export const PEOPLE_ACTIONS = ['create', 'update', 'unchanged', 'delete', 'error'] as const;
export type PeopleAction = (typeof PEOPLE_ACTIONS)[number];

export const PEOPLE_ACTION_LABELS: Record<PeopleAction, string> = {
  create: 'Новый',
  update: 'Изменится',
  unchanged: 'Без изменений',
  delete: 'Будет удалён',
  error: 'Ошибка',
};

/** One changed field of a person: what it was and what it becomes (null: empty). */
export const fieldChange = z.object({
  field: z.enum(PERSON_FIELDS),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type FieldChange = z.infer<typeof fieldChange>;

/** A row of a batch: a line of the file (or a directory entry, or a person missing from either). */
export const peopleBatchRow = z.object({
  /** The file's line (the header is line 1); null for a person the file does not name. */
  line: z.number().int().nullable(),
  action: z.enum(PEOPLE_ACTIONS),
  email: z.string(),
  name: z.string(),
  user_id: z.number().int().nullable(),
  changes: z.array(fieldChange),
  errors: z.array(z.string()),
});
export type PeopleBatchRow = z.infer<typeof peopleBatchRow>;

const flag = z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean());

/** What the admin ticks before the dry run. */
export const peopleImportOptions = z.object({
  /** 'Создавать отделы': departments the file names and the company lacks are created. */
  create_departments: flag.default(false),
  /** 'Удалить отсутствующих': live employees the file does not name are deleted (softly). */
  delete_missing: flag.default(false),
  /** 'Отправить приглашения': every new employee gets a password by mail, after the commit. */
  send_welcome: flag.default(false),
});
export type PeopleImportOptions = z.infer<typeof peopleImportOptions>;

export const peopleCounts = z.object({
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  delete: z.number().int(),
  error: z.number().int(),
});
export type PeopleCounts = z.infer<typeof peopleCounts>;

export const PEOPLE_BATCH_STATUSES = ['previewed', 'applied'] as const;

/** A dry run as the screen shows it. */
export const peopleBatch = z.object({
  id: z.number().int(),
  source: z.enum(['import', 'directory']),
  status: z.enum(PEOPLE_BATCH_STATUSES),
  file_name: z.string().nullable(),
  created_at: z.string(),
  applied_at: z.string().nullable(),
  options: peopleImportOptions,
  counts: peopleCounts,
  /** Departments that applying creates (with 'Создавать отделы'). */
  new_departments: z.array(z.string()),
});
export type PeopleBatch = z.infer<typeof peopleBatch>;
export const peopleBatchResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string().optional() }),
  data: peopleBatch,
});

export const PEOPLE_ROWS_PER_PAGE = 50;
export const peopleBatchRowsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(200).optional(),
  action: z.enum(PEOPLE_ACTIONS).optional(),
});
export type PeopleBatchRowsQuery = z.infer<typeof peopleBatchRowsQuery>;
export const peopleBatchRowsResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  items: z.array(peopleBatchRow),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});

export const peopleBatchParam = idParam;

/** GET /api/admin/people-import/template */
export const peopleTemplateQuery = z.object({ format: z.enum(EXPORT_FORMATS).default('xlsx') });

/** What applying a batch says: 'Изменения применены. Добавлено: 3, изменено: 1, удалено: 0.' */
export function appliedMessage(counts: Pick<PeopleCounts, 'create' | 'update' | 'delete'>): string {
  return `Изменения применены. Добавлено: ${counts.create}, изменено: ${counts.update}, удалено: ${counts.delete}.`;
}

/** GET /api/admin/directory-sync: whether the sync is set up, how often it runs, its last batch. */
export const directorySyncStatus = z.object({
  configured: z.boolean(),
  /** Minutes between scheduled syncs; null: only the button. */
  interval_minutes: z.number().int().nullable(),
  last: peopleBatch.nullable(),
});
export type DirectorySyncStatus = z.infer<typeof directorySyncStatus>;
export const directorySyncStatusResponse = z.object({
  result: z.object({ success: z.literal(true) }),
  data: directorySyncStatus,
});
