import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { EnrollmentService } from '../enrollment/service.js';
import type { CoursesRepository } from './repository.js';

/**
 * Course deletion (docs/rules.md §Deletion): the course is marked deleted and its assignments end,
 * so it vanishes from every screen and call; modules, lessons, tests and every learner's progress,
 * attempts and answers stay in the database for audits.
 */
export class CoursesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: CoursesRepository,
    private readonly enrollment: EnrollmentService,
  ) {}

  /** Deletes the given courses, or every course of a category; returns the ids deleted. */
  delete(filter: { ids?: readonly number[]; categoryId?: number }, now: string): Promise<number[]> {
    return this.uow.run(async () => {
      const deleted = await this.repo.softDelete(filter, now);
      await this.enrollment.coursesDeleted(deleted);
      return deleted;
    });
  }
}
