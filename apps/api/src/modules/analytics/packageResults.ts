import type { CoursesRepository, OutlineItem } from '../courses/repository.js';
import type { EmployeeCourse } from './employeeCourses.js';

export type PackageStatus = 'completed' | 'failed' | 'in_progress' | 'not_started';

/** SCORM items' results, read from the module that owns them (app.ts hands modules/scorm's in). */
export interface PackageResults {
  of(
    userId: number,
    lessonIds: readonly number[],
    since: string | null,
  ): Promise<Map<number, { status: PackageStatus; score: number | null }>>;
  many(
    userIds: readonly number[],
    lessonIds: readonly number[],
    sinceOf: (userId: number, lessonId: number) => string | null,
  ): Promise<
    Map<string, { status: PackageStatus; score: number | null; version: number | null; runs: Map<string, PackageRun> }>
  >;
}
interface PackageRun {
  total_seconds: number;
  session_seconds: number;
  updated_at: string;
}

/** One SCORM item of an employee's enrolled course with their result (a row of the export). */
export interface PackageResultRow {
  course: EmployeeCourse;
  item: OutlineItem;
  status: PackageStatus;
  score: number | null;
  version: number | null;
  /** Time in the package over its items' runs in the cycle, seconds. */
  seconds: number;
  /** The last commit, or null when never opened. */
  lastActivity: string | null;
}

/**
 * The SCORM items of the given employees' enrolled courses (`courses`, batch by batch as the export
 * per course reads them), each with the employee's result in their current cycle: one read of the runs
 * per batch; each course's items read once.
 */
export async function* packageResultRows(
  courses: AsyncGenerator<EmployeeCourse[]>,
  outline: Pick<CoursesRepository, 'publishedOutline'>,
  results: PackageResults,
): AsyncGenerator<PackageResultRow[]> {
  const itemsOf = new Map<number, OutlineItem[]>();
  for await (const batch of courses) {
    for (const courseId of new Set(batch.map((c) => c.course_id))) {
      if (itemsOf.has(courseId)) continue;
      const modules = await outline.publishedOutline(courseId);
      itemsOf.set(
        courseId,
        modules.flatMap((m) => m.items).filter((i) => i.kind === 'scorm'),
      );
    }
    const courseOf = new Map<number, number>();
    for (const [courseId, items] of itemsOf) for (const item of items) courseOf.set(item.id, courseId);
    const lessonIds = [...new Set(batch.flatMap((c) => (itemsOf.get(c.course_id) ?? []).map((i) => i.id)))];
    if (lessonIds.length === 0) continue;
    const summaries = new Map(batch.map((c) => [`${c.user_id}:${c.course_id}`, c.summary]));
    const sinceOf = (userId: number, lessonId: number) => {
      const summary = summaries.get(`${userId}:${courseOf.get(lessonId)}`);
      return summary && summary.cycle > 1 ? summary.cycle_start : null;
    };
    const found = await results.many([...new Set(batch.map((c) => c.user_id))], lessonIds, sinceOf);
    const rows = batch.flatMap((course) =>
      (itemsOf.get(course.course_id) ?? []).map((item): PackageResultRow => {
        const result = found.get(`${course.user_id}:${item.id}`);
        const runs = [...(result?.runs.values() ?? [])];
        return {
          course,
          item,
          status: result?.status ?? 'not_started',
          score: result?.score ?? null,
          version: result?.version ?? null,
          seconds: runs.reduce((sum, r) => sum + r.total_seconds + r.session_seconds, 0),
          lastActivity: runs.reduce<string | null>(
            (last, r) => (last === null || r.updated_at > last ? r.updated_at : last),
            null,
          ),
        };
      }),
    );
    if (rows.length > 0) yield rows;
  }
}
