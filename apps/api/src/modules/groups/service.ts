import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { GroupInput, GroupsRepository } from './repository.js';

export const GROUP_MESSAGES = {
  notFound: 'Группа не найдена',
  userMissing: 'Выбранный пользователь не найден',
  added: 'Группа успешно добавлена',
  updated: 'Группа успешно обновлена',
  deleted: 'Группа успешно удалена',
} as const;

/** Study groups; their courses enroll every member (DESIGN.md §6 "Enrollment"). */
export class GroupsService {
  constructor(
    private readonly repo: GroupsRepository,
    private readonly courses: CourseOptions,
    private readonly clock: Clock,
  ) {}

  list() {
    return this.repo.list();
  }

  private async checked(input: GroupInput): Promise<GroupInput> {
    const user_ids = [...new Set(input.user_ids)];
    if ((await this.repo.existingUserIds(user_ids)).length !== user_ids.length) {
      throw unprocessable(GROUP_MESSAGES.userMissing, { user_ids: [GROUP_MESSAGES.userMissing] });
    }
    return { name: input.name, user_ids, course_ids: await this.courses.checkIds(input.course_ids) };
  }

  async create(input: GroupInput) {
    const id = await this.repo.create(await this.checked(input), iso(this.clock.now()));
    return this.get(id);
  }

  async update(id: number, input: GroupInput) {
    await this.get(id);
    await this.repo.update(id, await this.checked(input), iso(this.clock.now()));
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    await this.get(id);
    await this.repo.delete(id);
  }

  async courseOptions(id: number) {
    return this.courses.options((await this.get(id)).course_ids);
  }

  private async get(id: number) {
    const found = await this.repo.find(id);
    if (!found) throw notFound(GROUP_MESSAGES.notFound);
    return found;
  }
}
