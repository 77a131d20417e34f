import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { CourseHolderService } from './courseHolderService.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { DepartmentInput, DepartmentRecord, DepartmentsRepository } from './repository.js';

export const DEPARTMENT_MESSAGES = {
  notFound: 'Отдел не найден',
  added: 'Отдел успешно добавлен',
  updated: 'Отдел успешно обновлен',
  deleted: 'Отдел успешно удален',
} as const;

/** Departments; their courses enroll every member (docs/rules.md §Enrollment). */
export class DepartmentsService extends CourseHolderService<DepartmentRecord> {
  protected readonly notFoundMessage = DEPARTMENT_MESSAGES.notFound;

  constructor(
    private readonly uow: UnitOfWork,
    protected readonly repo: DepartmentsRepository,
    protected readonly courses: CourseOptions,
    private readonly enrollment: EnrollmentService,
    private readonly clock: Clock,
  ) {
    super();
  }

  create(input: DepartmentInput) {
    return this.uow.run(async () => {
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      const id = await this.repo.insert(input, now);
      await this.enrollment.setDepartmentCourses(id, courseIds, now);
      return this.get(id);
    });
  }

  update(id: number, input: DepartmentInput) {
    return this.uow.run(async () => {
      await this.get(id);
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      await this.repo.update(id, input, now);
      await this.enrollment.setDepartmentCourses(id, courseIds, now);
      return this.get(id);
    });
  }

  delete(id: number): Promise<void> {
    return this.uow.run(async () => {
      await this.get(id);
      await this.enrollment.departmentDeleted(id);
      await this.repo.delete(id);
    });
  }
}
