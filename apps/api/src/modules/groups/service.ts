import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { Actor, AuditService } from '../audit/service.js';
import { iso, type Clock } from '../../platform/clock.js';
import { unprocessable } from '../../platform/errors.js';
import { CourseHolderService } from '../departments/courseHolderService.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { UsersRepository } from '../users/repository.js';
import type { GroupInput, GroupRecord, GroupsRepository } from './repository.js';

export const GROUP_MESSAGES = {
  notFound: 'Группа не найдена',
  userMissing: 'Выбранный пользователь не найден',
  added: 'Группа успешно добавлена',
  updated: 'Группа успешно обновлена',
  deleted: 'Группа успешно удалена',
} as const;

/** Study groups; their courses enroll every member (docs/rules.md §Enrollment). */
export class GroupsService extends CourseHolderService<GroupRecord> {
  protected readonly notFoundMessage = GROUP_MESSAGES.notFound;
  protected readonly kind = 'group';

  constructor(
    private readonly uow: UnitOfWork,
    protected readonly repo: GroupsRepository,
    private readonly users: UsersRepository,
    protected readonly courses: CourseOptions,
    private readonly enrollment: EnrollmentService,
    private readonly clock: Clock,
    protected readonly audit: AuditService,
  ) {
    super();
  }

  private async checked(input: GroupInput): Promise<GroupInput> {
    const user_ids = [...new Set(input.user_ids)];
    if ((await this.users.existingIds(user_ids)).length !== user_ids.length) {
      throw unprocessable(GROUP_MESSAGES.userMissing, { user_ids: [GROUP_MESSAGES.userMissing] });
    }
    return { name: input.name, user_ids, course_ids: await this.courses.checkIds(input.course_ids) };
  }

  create(actor: Actor, input: GroupInput) {
    return this.uow.run(async () => {
      const checked = await this.checked(input);
      const now = iso(this.clock.now());
      const id = await this.repo.insert(checked.name, now);
      const change = await this.enrollment.setGroup(
        id,
        { userIds: checked.user_ids, courseIds: checked.course_ids },
        now,
      );
      const created = await this.get(id);
      await this.recordCourses(actor, created, change);
      return created;
    });
  }

  update(actor: Actor, id: number, input: GroupInput) {
    return this.uow.run(async () => {
      await this.get(id);
      const checked = await this.checked(input);
      const now = iso(this.clock.now());
      await this.repo.rename(id, checked.name, now);
      const change = await this.enrollment.setGroup(
        id,
        { userIds: checked.user_ids, courseIds: checked.course_ids },
        now,
      );
      const updated = await this.get(id);
      await this.recordCourses(actor, updated, change);
      return updated;
    });
  }

  /** The group goes, and with it its courses' assignments (recorded as taken from it). */
  delete(actor: Actor, id: number): Promise<void> {
    return this.uow.run(async () => {
      const group = await this.get(id);
      const removed = await this.enrollment.groupDeleted(id);
      await this.recordCourses(actor, group, { added: [], removed });
      await this.repo.delete(id);
    });
  }
}
