import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { Actor, AuditService } from '../audit/service.js';
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
  protected readonly kind = 'department';

  constructor(
    private readonly uow: UnitOfWork,
    protected readonly repo: DepartmentsRepository,
    protected readonly courses: CourseOptions,
    private readonly enrollment: EnrollmentService,
    private readonly clock: Clock,
    protected readonly audit: AuditService,
  ) {
    super();
  }

  create(actor: Actor, input: DepartmentInput) {
    return this.uow.run(async () => {
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      const id = await this.repo.insert(input, now);
      const change = await this.enrollment.setDepartmentCourses(id, courseIds, now);
      const created = await this.get(id);
      await this.recordCourses(actor, created, change);
      return created;
    });
  }

  update(actor: Actor, id: number, input: DepartmentInput) {
    return this.uow.run(async () => {
      await this.get(id);
      const courseIds = await this.courses.checkIds(input.course_ids);
      const now = iso(this.clock.now());
      await this.repo.update(id, input, now);
      const change = await this.enrollment.setDepartmentCourses(id, courseIds, now);
      const updated = await this.get(id);
      await this.recordCourses(actor, updated, change);
      return updated;
    });
  }

  /** The department goes, and with it its courses' assignments (recorded as taken from it). */
  delete(actor: Actor, id: number): Promise<void> {
    return this.uow.run(async () => {
      const department = await this.get(id);
      const removed = await this.enrollment.departmentDeleted(id);
      await this.recordCourses(actor, department, { added: [], removed });
      await this.repo.delete(id);
    });
  }
}
