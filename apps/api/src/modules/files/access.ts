import { can } from '../../platform/access.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { LearningEngine } from '../progress/service.js';
import type { UsersRepository } from '../users/repository.js';

/**
 * Who may read a stored file (DESIGN.md §6 "Uploads"): staff who build courses read every file; anyone
 * else a file that published content of a course visible to them holds, or a user's photo.
 */
export class FileAccess {
  constructor(
    private readonly users: UsersRepository,
    private readonly courses: CoursesRepository,
    private readonly engine: LearningEngine,
  ) {}

  async mayRead(user: SessionUser, path: string): Promise<boolean> {
    if (can(user.role, 'constructor.manage')) return true;
    if (await this.users.photoInUse(path)) return true;
    const courseIds = [
      ...new Set((await this.courses.fileReferences(path)).filter((r) => r.published).map((r) => r.course_id)),
    ];
    if (courseIds.length === 0) return false;
    const visible = new Set(await this.engine.visibleCourseIds(user.id));
    return courseIds.some((id) => visible.has(id));
  }
}
