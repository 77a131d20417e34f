import { randomBytes } from 'node:crypto';
import {
  PEOPLE_ROWS_PER_PAGE,
  type FieldChange,
  type PeopleBatch,
  type PeopleBatchRow,
  type PeopleBatchRowsQuery,
  type PeopleImportOptions,
  type PersonField,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, addMs, iso, type Clock } from '../../platform/clock.js';
import { HttpError, notFound, unprocessable } from '../../platform/errors.js';
import { hashPassword } from '../../platform/passwords.js';
import type { SessionRepository } from '../../platform/sessions.js';
import type { ChangeOrigin, Actor, AuditService } from '../audit/service.js';
import type { DepartmentsRepository } from '../departments/repository.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { UserInput, UsersRepository } from '../users/repository.js';
import { USER_MESSAGES } from '../users/service.js';
import { readPeopleFile } from './file.js';
import { planPeople, type PersonInput, type Plan, type PlannedRow } from './plan.js';
import type { PeopleBatchRepository, StoredBatch } from './repository.js';
import type { WelcomeQueue } from './welcome.js';

export const IMPORT_MESSAGES = {
  notFound: 'Проверка файла не найдена',
  applied: 'Эти изменения уже применены',
  outdated:
    'С момента проверки сотрудники или отделы изменились. Загрузите файл ещё раз, чтобы увидеть актуальные изменения',
  nothingToApply: 'Применять нечего: в файле нет изменений',
} as const;

type PeopleSource = PeopleBatch['source'];

/** What a directory entry gives: the role stays the platform's (a new person is a learner). */
const DIRECTORY_FIELDS: PersonField[] = ['last_name', 'first_name', 'email', 'department', 'position', 'manager'];

/** How long a dry run's rows are kept (its head, with the counts, stays). */
const ROWS_KEPT_MS = 7 * DAY;

/** The role a person without one in the file gets. */
const DEFAULT_ROLE = 'learner';

const key = (text: string) => text.trim().toLowerCase();

/**
 * Importing people from a spreadsheet (docs/rules.md §Importing people): a dry run stored as a batch,
 * then applied in one transaction exactly as previewed. The users, departments and enrollment
 * modules stay the writers of their tables; this service decides what to ask of them.
 */
export class PeopleImportService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly batches: PeopleBatchRepository,
    private readonly users: UsersRepository,
    private readonly departments: DepartmentsRepository,
    private readonly sessions: SessionRepository,
    private readonly enrollment: EnrollmentService,
    private readonly audit: AuditService,
    private readonly welcome: WelcomeQueue,
    private readonly clock: Clock,
    private readonly emailDomain: string | null,
  ) {}

  /** Reads the file and stores what importing it would do; writes nothing else. */
  async preview(actor: Actor, file: { bytes: Buffer; name: string }, options: PeopleImportOptions) {
    const { columns, rows } = await readPeopleFile(file.bytes);
    const inputs: PersonInput[] = rows.map((r) => ({ line: r.line, cells: r.cells }));
    return this.dryRun({ source: 'import', actor, fileName: file.name, inputs, columns, options });
  }

  /**
   * Stores what a sync with the directory's entries would do (docs/rules.md §Directory sync): new
   * people created with their departments, changed ones updated, disabled and vanished ones deleted
   * softly; people added by hand are never touched.
   */
  directoryDryRun(actor: Actor | null, inputs: PersonInput[]): Promise<PeopleBatch> {
    return this.dryRun({
      source: 'directory',
      actor,
      fileName: null,
      inputs,
      columns: DIRECTORY_FIELDS,
      options: { create_departments: true, delete_missing: true, send_welcome: false },
    });
  }

  private dryRun(run: {
    source: PeopleSource;
    actor: Actor | null;
    fileName: string | null;
    inputs: PersonInput[];
    columns: PersonField[];
    options: PeopleImportOptions;
  }): Promise<PeopleBatch> {
    return this.uow.run(async () => {
      const plan = await this.plan(run.source, run.inputs, run.columns, run.options, run.actor?.id ?? null);
      const now = iso(this.clock.now());
      // A dry run's rows are kept a week: hourly syncs of a large directory would otherwise pile up.
      await this.batches.pruneRows(iso(addMs(this.clock.now(), -ROWS_KEPT_MS)));
      const id = await this.batches.insert(
        { source: run.source, fileName: run.fileName, createdBy: run.actor?.id ?? null, now },
        { ...run.options, columns: run.columns },
        run.inputs,
        plan,
      );
      return this.batch(id);
    });
  }

  /** Forgets a batch's rows, keeping its head (the scheduled sync's run that changed nothing). */
  dropRows(id: number): Promise<void> {
    return this.batches.dropRows(id);
  }

  /** The newest batch of a source (the directory sync's last run), if any. */
  async lastBatch(source: PeopleSource): Promise<PeopleBatch | null> {
    const id = await this.batches.lastId(source);
    return id === undefined ? null : this.batch(id);
  }

  async batch(id: number): Promise<PeopleBatch> {
    const stored = await this.batches.find(id);
    if (!stored) throw notFound(IMPORT_MESSAGES.notFound);
    return stored.batch;
  }

  async rows(id: number, query: PeopleBatchRowsQuery) {
    await this.batch(id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? PEOPLE_ROWS_PER_PAGE;
    const { rows, total } = await this.batches.rowsPage(id, query.action, perPage, (page - 1) * perPage);
    const items: PeopleBatchRow[] = rows.map((r) => ({
      line: r.line,
      action: r.action as PeopleBatchRow['action'],
      email: r.email,
      name: r.name,
      user_id: r.user_id,
      changes: r.field_changes as FieldChange[],
      errors: r.row_errors,
    }));
    return { items, total, page, per_page: perPage };
  }

  /**
   * Writes what the dry run showed, in one transaction, or nothing: planned again from the stored
   * rows, the plan must be the one previewed (else 409); rows with errors are left out, as shown.
   */
  async apply(actor: Actor | null, id: number, site: string): Promise<PeopleBatch> {
    // One unusable password for everyone created: an argon2 hash of a secret nobody keeps. A person
    // signs in once their invitation sets a password, or after recovering one.
    const placeholder = await hashPassword(randomBytes(32).toString('hex'));
    await this.uow.run(async () => {
      await this.batches.holdApplies();
      const stored = await this.batches.find(id, this.uow.kind === 'postgres');
      if (!stored) throw notFound(IMPORT_MESSAGES.notFound);
      if (stored.batch.status === 'applied') throw new HttpError(409, IMPORT_MESSAGES.applied);
      const inputs = await this.batches.inputs(id);
      const source = stored.batch.source;
      const plan = await this.plan(source, inputs, stored.columns, stored.batch.options, actor?.id ?? null);
      if (plan.fingerprint !== stored.fingerprint) throw new HttpError(409, IMPORT_MESSAGES.outdated);
      await this.users.administratorIds(this.uow.kind === 'postgres');
      await this.write(plan, stored, { actor, source, batchId: id }, placeholder, site);
      if ((await this.users.administratorIds(false)).length === 0) throw unprocessable(USER_MESSAGES.lastAdmin);
      await this.batches.markApplied(id, iso(this.clock.now()));
    });
    return this.batch(id);
  }

  private async plan(
    source: PeopleSource,
    inputs: PersonInput[],
    columns: PersonField[],
    options: PeopleImportOptions,
    actorId: number | null,
  ) {
    const [people, departments, roles] = await Promise.all([
      this.users.livePeople(),
      this.departments.list(),
      this.users.roles(),
    ]);
    return planPeople(inputs, {
      source,
      people,
      departments,
      roles,
      defaultRoleCode: DEFAULT_ROLE,
      actorId,
      options,
      columns,
      emailDomain: this.emailDomain,
    });
  }

  private async write(plan: Plan, stored: StoredBatch, origin: ChangeOrigin, placeholder: string, site: string) {
    const now = iso(this.clock.now());
    const departmentIds = new Map((await this.departments.list()).map((d) => [key(d.name), d.id]));
    for (const name of plan.newDepartments) {
      departmentIds.set(key(name), await this.departments.insert({ name, sort_order: null }, now));
    }
    const inputOf = (row: PlannedRow): UserInput => {
      if (!row.target) throw new Error('a planned change without its target');
      // The manager is set once everyone is in (below).
      const { department, manager: _manager, ...fields } = row.target;
      return { ...fields, department_id: department === null ? null : (departmentIds.get(key(department)) ?? null) };
    };
    const of = (action: PlannedRow['action']) => plan.rows.filter((r) => r.action === action);

    const created = of('create');
    const ids = await this.users.insertMany(
      created.map((row) => ({ ...inputOf(row), origin: origin.source })),
      placeholder,
      now,
    );
    const createdIds = created.map((r) => ids.get(r.email) ?? 0);

    // Managers by address once everyone is in: the plan made sure each is a live employee by now.
    const managed = plan.rows.filter((r) => r.changes.some((c) => c.field === 'manager'));
    const managerIds = await this.users.liveIdsByEmail([
      ...new Set(managed.flatMap((r) => (r.target?.manager ? [r.target.manager] : []))),
    ]);
    const managerOf = (row: PlannedRow) => (row.target?.manager ? (managerIds.get(row.target.manager) ?? null) : null);

    // Each changed person is written in the columns that change only.
    const updates = of('update').map((row) => {
      const input = inputOf(row);
      const set: Partial<UserInput> = {};
      for (const { field } of row.changes) {
        if (field === 'department') set.department_id = input.department_id;
        else if (field === 'role') set.role_id = input.role_id;
        else if (field === 'position') set.position = input.position;
        else if (field === 'manager') set.manager_id = managerOf(row);
        else set[field] = input[field];
      }
      return { id: row.user_id ?? 0, set };
    });
    created.forEach((row, i) => {
      if (row.target?.manager) updates.push({ id: createdIds[i] ?? 0, set: { manager_id: managerOf(row) } });
    });
    await this.users.updateMany(updates, now);
    const moved = updates.filter((u) => 'department_id' in u.set).map((u) => u.id);
    const deleted = of('delete').map((r) => r.user_id ?? 0);
    for (const id of deleted) {
      await this.users.softDelete(id, now);
      await this.sessions.deleteAllOf(id);
    }
    await this.enrollment.usersChanged([...createdIds, ...moved]);
    await this.enrollment.usersDeleted(deleted);

    await this.audit.record(origin, [
      ...created.map((row, i) => ({
        action: 'user_created' as const,
        subject: { kind: 'user' as const, id: createdIds[i] ?? 0, name: row.name },
        changes: row.changes,
      })),
      ...of('update').map((row) => ({
        action: 'user_updated' as const,
        subject: { kind: 'user' as const, id: row.user_id ?? 0, name: row.name },
        changes: row.changes,
      })),
      ...of('delete').map((row) => ({
        action: 'user_deleted' as const,
        subject: { kind: 'user' as const, id: row.user_id ?? 0, name: row.name },
      })),
    ]);
    if (stored.batch.options.send_welcome) await this.welcome.add(createdIds, site, now);
  }
}
