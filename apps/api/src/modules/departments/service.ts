import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import type { DepartmentInput, DepartmentsRepository } from './repository.js';

export const DEPARTMENT_MESSAGES = {
  notFound: 'Отдел не найден',
  added: 'Отдел успешно добавлен',
  updated: 'Отдел успешно обновлен',
  deleted: 'Отдел успешно удален',
} as const;

/** Departments; their courses enroll every member (DESIGN.md §6 "Enrollment"). */
export class DepartmentsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: DepartmentsRepository,
    private readonly courses: CourseOptions,
    private readonly enrollment: EnrollmentRepository,
    private readonly clock: Clock,
  ) {}

  private async refreshMembers(id: number): Promise<void> {
    await this.enrollment.refresh({ userIds: await this.enrollment.departmentMembers(id) });
  }

  list() {
    return this.repo.list();
  }

  create(input: DepartmentInput) {
    return this.uow.run(async () => {
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      const id = await this.repo.insert(input, now);
      await this.repo.setCourses(id, courseIds, now);
      await this.refreshMembers(id);
      return this.get(id);
    });
  }

  update(id: number, input: DepartmentInput) {
    return this.uow.run(async () => {
      await this.get(id);
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      await this.repo.update(id, input, now);
      await this.repo.setCourses(id, courseIds, now);
      await this.refreshMembers(id);
      return this.get(id);
    });
  }

  delete(id: number): Promise<void> {
    return this.uow.run(async () => {
      await this.get(id);
      const members = await this.enrollment.departmentMembers(id);
      await this.repo.delete(id);
      await this.enrollment.refresh({ userIds: members });
    });
  }

  async courseOptions(id: number) {
    return this.courses.options((await this.get(id)).course_ids);
  }

  private async get(id: number) {
    const found = await this.repo.find(id);
    if (!found) throw notFound(DEPARTMENT_MESSAGES.notFound);
    return found;
  }
}
