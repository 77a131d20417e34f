import type { AdminUserDetail, AdminUserListItem, AdminUsersQuery } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { newPasswordMail, welcomeMail, type MailContext } from '../../platform/mail/templates.js';
import { generatePassword, hashPassword } from '../../platform/passwords.js';
import type { SessionRepository } from '../../platform/sessions.js';
import { personFieldsOf, fieldChanges } from '../audit/changes.js';
import type { Actor, AuditService } from '../audit/service.js';
import { fullName } from '../auth/permissions.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { Credentials } from './credentials.js';
import { UserListing } from './listing.js';
import type { UserInput, UserRecord, UsersRepository } from './repository.js';

const EXPORT_BATCH = 1000;
const DEFAULT_PER_PAGE = 50;

/** One page of the employees list, as GET /api/admin/users answers it with paging parameters. */
export interface UserPage {
  items: AdminUserListItem[];
  total: number;
  page: number;
  per_page: number;
}

/** What a row of the employees list shows of a user. */
export function toListItem(u: UserRecord): AdminUserListItem {
  return {
    id: u.id,
    name: fullName(u),
    first_name: u.first_name,
    last_name: u.last_name,
    login: u.email,
    email: u.email,
    position: u.position,
    department: u.department_id !== null ? { id: u.department_id, name: u.department_name ?? '' } : null,
    roles: { id: u.role_id, name: u.role_name },
    last_activity: u.last_activity_at,
    from_directory: u.directory_id !== null,
    manager:
      u.manager_id === null
        ? null
        : {
            id: u.manager_id,
            name: fullName({ first_name: u.manager_first_name ?? '', last_name: u.manager_last_name ?? '' }),
            email: u.manager_email ?? '',
          },
  };
}

export const USER_MESSAGES = {
  emailTaken: 'Пользователь с таким email уже существует',
  roleOrDepartment: 'Пожалуйста, выберите роль и отдел',
  selfDelete: 'Вы не можете удалить свою собственную учетную запись',
  selfRole: 'Вы не можете изменить свою собственную роль',
  lastAdmin: 'В компании должен остаться хотя бы один администратор',
  notFound: 'Пользователь не найден',
  passwordReset: 'Пароль успешно сброшен и отправлен на email пользователя',
  fromDirectory:
    'Имя, email, отдел, должность и руководитель этого сотрудника приходят из каталога (Active Directory) и меняются только в нём',
  unknownManager: 'Руководитель с таким email не найден среди сотрудников',
  selfManager: 'Сотрудник не может быть своим руководителем',
  deleteFromDirectory:
    'Сотрудник синхронизируется с каталогом (Active Directory): чтобы удалить его, отключите его учётную запись в каталоге',
} as const;

/** Whether an edit changes what the directory sync owns of a person (all but the role). */
function syncedFieldsChange(current: UserRecord, input: UserInput): boolean {
  return (
    current.first_name !== input.first_name ||
    current.last_name !== input.last_name ||
    current.email !== input.email.toLowerCase() ||
    current.department_id !== input.department_id ||
    (current.position ?? null) !== (input.position ?? null) ||
    (input.manager_id !== undefined && input.manager_id !== current.manager_id)
  );
}

/** A change made in the employees tab. */
const manual = (actor: Actor) => ({ actor, source: 'manual' as const });

export interface UserFields {
  first_name: string;
  last_name: string;
  login: string;
  department_id: number;
  role_id: number;
  position?: string | null | undefined;
  manager_email?: string | null | undefined;
}

/** Employees of the company, managed by admins (docs/product.md §Settings, docs/rules.md §Accounts). */
export class UsersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: UsersRepository,
    private readonly sessions: SessionRepository,
    private readonly enrollment: EnrollmentService,
    private readonly credentials: Credentials,
    private readonly courseOptions: CourseOptions,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly mail: MailContext,
    private readonly audit: AuditService,
  ) {
    this.#listing = new UserListing(uow);
  }

  readonly #listing: UserListing;

  async list(): Promise<AdminUserListItem[]> {
    return (await this.repo.list()).map(toListItem);
  }

  /** One page of the employees list (issue 14): what the tab shows, never the whole company. */
  async page(query: AdminUsersQuery): Promise<UserPage> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.#listing.page({
      search: query.search,
      sort: query.sort,
      direction: query.direction,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return { items: rows.map(toListItem), total, page, per_page: perPage };
  }

  /**
   * Every employee the tab lists for a search and sort (its pages one after another), a batch at a
   * time: an export of 10 000 employees never holds them all at once.
   */
  async *listed(
    query: Pick<AdminUsersQuery, 'search' | 'sort' | 'direction'>,
    batch = EXPORT_BATCH,
  ): AsyncGenerator<AdminUserListItem[]> {
    for (let offset = 0; ; offset += batch) {
      const rows = await this.#listing.pageRows({
        search: query.search,
        sort: query.sort,
        direction: query.direction,
        limit: batch,
        offset,
      });
      if (rows.length > 0) yield rows.map(toListItem);
      if (rows.length < batch) return;
    }
  }

  async detail(id: number): Promise<AdminUserDetail> {
    const user = await this.repo.find(id);
    if (!user) throw notFound(USER_MESSAGES.notFound);
    return { ...toListItem(user), courses: await this.enrollment.directCourses(id) };
  }

  private async checked(fields: UserFields, exceptId?: number): Promise<UserInput> {
    if (await this.repo.emailTaken(fields.login, exceptId)) {
      throw unprocessable(USER_MESSAGES.emailTaken, { login: [USER_MESSAGES.emailTaken] });
    }
    if (!(await this.repo.roleExists(fields.role_id)) || !(await this.repo.departmentExists(fields.department_id))) {
      throw unprocessable(USER_MESSAGES.roleOrDepartment, { role_id: [USER_MESSAGES.roleOrDepartment] });
    }
    return {
      ...(await this.managerOf(fields, exceptId)),
      first_name: fields.first_name,
      last_name: fields.last_name,
      email: fields.login,
      department_id: fields.department_id,
      role_id: fields.role_id,
      position: fields.position?.trim() || null,
    };
  }

  /** The line manager the form names: a live employee other than the person; not named, left as it is. */
  private async managerOf(fields: UserFields, selfId?: number): Promise<Pick<UserInput, 'manager_id'>> {
    const refuse = (message: string) => unprocessable(message, { manager_email: [message] });
    const email = fields.manager_email;
    if (email === undefined) return {};
    if (email === null || email === '') return { manager_id: null };
    if (email === fields.login) throw refuse(USER_MESSAGES.selfManager);
    const id = (await this.repo.liveIdsByEmail([email])).get(email);
    if (id === undefined) throw refuse(USER_MESSAGES.unknownManager);
    if (id === selfId) throw refuse(USER_MESSAGES.selfManager);
    return { manager_id: id };
  }

  /**
   * Creates the employee with a random password and mails the login, the password and the sign-in
   * link (`site`, the platform's address) to them; they set their own at the first sign-in.
   */
  async create(
    actor: Actor,
    fields: UserFields & { course_ids: number[] },
    site: string,
  ): Promise<{ id: number; name: string }> {
    const password = generatePassword(14);
    const passwordHash = await hashPassword(password);
    const { id, input } = await this.uow.run(async () => {
      const input = await this.checked(fields);
      const courseIds = await this.courseOptions.checkIds(fields.course_ids);
      const now = iso(this.clock.now());
      const id = await this.repo.insert(input, passwordHash, now);
      const assigned = await this.enrollment.assignToUser(id, courseIds, now);
      const created = await this.repo.find(id);
      if (created) {
        const person = { id, name: fullName(created) };
        await this.audit.userCreated(manual(actor), person, personFieldsOf(created));
        await this.recordCourses(actor, person, { added: assigned, removed: [] });
      }
      return { id, input };
    });
    const name = fullName(input);
    await this.mailer.send({
      ...welcomeMail(this.mail, input.email, `${input.first_name} ${input.last_name}`, {
        login: input.email,
        password,
        site,
      }),
      audit: { kind: 'new_user_password', user_id: id, course_id: null },
    });
    return { id, name };
  }

  update(actor: Actor, id: number, fields: UserFields): Promise<{ name: string }> {
    return this.keepingAnAdministrator(async () => {
      const current = await this.repo.find(id);
      if (!current) throw notFound(USER_MESSAGES.notFound);
      const input = await this.checked(fields, id);
      if (actor.id === id && input.role_id !== current.role_id) throw unprocessable(USER_MESSAGES.selfRole);
      if (current.directory_id !== null && syncedFieldsChange(current, input)) {
        throw unprocessable(USER_MESSAGES.fromDirectory);
      }
      await this.repo.update(id, input, iso(this.clock.now()), input.department_id !== current.department_id);
      await this.enrollment.userMoved(id);
      const updated = await this.repo.find(id);
      if (updated) {
        const changes = fieldChanges(personFieldsOf(current), personFieldsOf(updated));
        await this.audit.userUpdated(manual(actor), { id, name: fullName(updated) }, changes);
      }
      return { name: fullName(input) };
    });
  }

  /**
   * The account and its sessions end; the user's progress, attempts and answers stay, linked to the
   * row kept as deleted (docs/rules.md §Deletion).
   */
  delete(actor: Actor, id: number): Promise<{ name: string }> {
    if (actor.id === id) throw unprocessable(USER_MESSAGES.selfDelete);
    return this.keepingAnAdministrator(async () => {
      const user = await this.repo.find(id);
      if (!user) throw notFound(USER_MESSAGES.notFound);
      if (user.directory_id !== null) throw unprocessable(USER_MESSAGES.deleteFromDirectory);
      await this.repo.softDelete(id, iso(this.clock.now()));
      await this.sessions.deleteAllOf(id);
      await this.enrollment.userDeleted(id);
      await this.audit.userDeleted(manual(actor), { id, name: fullName(user) });
      return { name: fullName(user) };
    });
  }

  /**
   * Runs a change in one unit that is undone when no administrator would remain. On PostgreSQL the
   * administrators' rows are locked first, so two such changes cannot each miss the other's removal;
   * SQLite runs one write transaction at a time already.
   */
  private keepingAnAdministrator<T>(change: () => Promise<T>): Promise<T> {
    return this.uow.run(async () => {
      await this.repo.administratorIds(this.uow.kind === 'postgres');
      const result = await change();
      if ((await this.repo.administratorIds(false)).length === 0) throw unprocessable(USER_MESSAGES.lastAdmin);
      return result;
    });
  }

  /** A new random password, mailed with the sign-in link; every session of the user ends. */
  async resetPassword(id: number, site: string): Promise<void> {
    const user = await this.repo.find(id);
    if (!user) throw notFound(USER_MESSAGES.notFound);
    const password = generatePassword(14);
    await this.credentials.replacePassword(id, await hashPassword(password), { mailed: true });
    await this.mailer.send({
      ...newPasswordMail(this.mail, user.email, { login: user.email, password, site }),
      audit: { kind: 'new_password', user_id: id, course_id: null },
    });
  }

  async courses(id: number) {
    if (!(await this.repo.find(id))) throw notFound(USER_MESSAGES.notFound);
    return this.enrollment.directCourses(id);
  }

  /** Courses assigned to the employee directly; those new to them are recorded in the audit. */
  attach(actor: Actor, userId: number, courseIds: number[]): Promise<void> {
    return this.uow.run(async () => {
      const user = await this.repo.find(userId);
      if (!user) throw notFound(USER_MESSAGES.notFound);
      const checked = await this.courseOptions.checkIds(courseIds);
      const added = await this.enrollment.assignToUser(userId, checked, iso(this.clock.now()));
      await this.recordCourses(actor, { id: userId, name: fullName(user) }, { added, removed: [] });
    });
  }

  /** Direct assignments ended (records stay); those the employee had are recorded in the audit. */
  detach(actor: Actor, userId: number, courseIds: number[]): Promise<void> {
    return this.uow.run(async () => {
      const user = await this.repo.find(userId);
      if (!user) throw notFound(USER_MESSAGES.notFound);
      const removed = await this.enrollment.unassignFromUser(userId, [...new Set(courseIds)]);
      await this.recordCourses(actor, { id: userId, name: fullName(user) }, { added: [], removed });
    });
  }

  /** Direct assignment changes of an employee, in the audit of people changes (the caller's transaction). */
  private async recordCourses(
    actor: Actor,
    user: { id: number; name: string },
    change: { added: readonly number[]; removed: readonly number[] },
  ): Promise<void> {
    await this.audit.assignments(
      manual(actor),
      { kind: 'user', ...user },
      { added: await this.courseOptions.named(change.added), removed: await this.courseOptions.named(change.removed) },
    );
  }

  roles() {
    return this.repo.roles();
  }
}
