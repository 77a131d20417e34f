import { notFound } from '../../platform/errors.js';
import { manualBy, type Actor, type AuditService } from '../audit/service.js';
import type { CourseOptions } from '../enrollment/courseOptions.js';
import type { SetChange } from '../enrollment/sources.js';

/** What a settings list of course holders reads: departments and study groups alike. */
export interface CourseHolderRepository<R> {
  list(): Promise<R[]>;
  find(id: number): Promise<R | undefined>;
}

/**
 * The reading half of departments and study groups, which answer alike: the list, one of them by id
 * (404 with the holder's own message) and its courses as form options, and how a change of its
 * courses is recorded in the audit. Writing (and the enrollment refresh each write needs) stays with
 * each service.
 */
export abstract class CourseHolderService<R extends { course_ids: number[] }> {
  protected abstract readonly repo: CourseHolderRepository<R>;
  protected abstract readonly courses: CourseOptions;
  /** The 404 message when the id names no holder. */
  protected abstract readonly notFoundMessage: string;
  protected abstract readonly audit: AuditService;
  /** Whom the audit says a course was assigned to. */
  protected abstract readonly kind: 'department' | 'group';

  list(): Promise<R[]> {
    return this.repo.list();
  }

  async courseOptions(id: number) {
    return this.courses.options((await this.get(id)).course_ids);
  }

  /** The holder's course changes, in the audit of people changes (the caller's transaction). */
  protected async recordCourses(actor: Actor, holder: { id: number; name: string }, change: SetChange) {
    await this.audit.assignments(
      manualBy(actor),
      { kind: this.kind, id: holder.id, name: holder.name },
      { added: await this.courses.named(change.added), removed: await this.courses.named(change.removed) },
    );
  }

  protected async get(id: number): Promise<R> {
    const found = await this.repo.find(id);
    if (!found) throw notFound(this.notFoundMessage);
    return found;
  }
}
