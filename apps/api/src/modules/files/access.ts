import { can } from '../../platform/access.js';
import type { SessionUser } from '../../platform/sessions.js';
import { teamOf } from '../analytics/team.js';
import type { AttemptsRepository } from '../attempts/repository.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import type { LearningEngine } from '../progress/service.js';
import type { UsersRepository } from '../users/repository.js';

/**
 * Who may read a stored file (docs/rules.md §Uploads): staff who build courses read every file; a
 * manager the covers of the courses their team is enrolled in (the analytics screen shows them);
 * anyone else a file that published content of a course visible to them holds, a user's photo, or an
 * image one of their attempts asked (the snapshot keeps it after the author replaced it).
 */
export class FileAccess {
  constructor(
    private readonly users: UsersRepository,
    private readonly courses: CoursesRepository,
    private readonly enrollment: EnrollmentRepository,
    private readonly engine: LearningEngine,
    private readonly attempts: Pick<AttemptsRepository, 'fileInOwnAttempt'>,
  ) {}

  async mayRead(user: SessionUser, path: string): Promise<boolean> {
    if (can(user.role, 'constructor.manage')) return true;
    if (await this.users.photoInUse(path)) return true;
    const references = await this.courses.fileReferences(path);
    const team = teamOf(user);
    const covered = references.filter((r) => r.cover).map((r) => r.course_id);
    if (
      team.kind === 'department' &&
      (await this.enrollment.departmentEnrolledInAny(team.departmentId, team.except, covered))
    )
      return true;
    const courseIds = [...new Set(references.filter((r) => r.published).map((r) => r.course_id))];
    if (courseIds.length > 0) {
      const visible = new Set(await this.engine.visibleCourseIds(user.id));
      if (courseIds.some((id) => visible.has(id))) return true;
    }
    // An option's image as one of their attempts asked it, since replaced: their review shows it.
    return this.attempts.fileInOwnAttempt(user.id, path);
  }
}
