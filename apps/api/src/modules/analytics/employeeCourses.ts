import type { CoursesRepository } from '../courses/repository.js';
import type { CourseSummary } from '../progress/engine.js';
import type { LearningEngine } from '../progress/service.js';

/** People per read of their courses: a few indexed statements for this many, whatever the team's size. */
export const EMPLOYEES_PER_READ = 1000;

/** One enrolled course of an employee with its figures (the analytics export per course). */
export interface EmployeeCourse {
  user_id: number;
  course_id: number;
  title: string;
  summary: CourseSummary;
}

/**
 * The enrolled courses of the given people, person after person in the order given and each one's
 * courses in catalogue order (as the employee modal lists them), `perRead` people at a time: the
 * live courses and their rules are read once, then each batch's enrollments and learning state rows
 * by index (`summaries`), never a statement per person. Nothing is read before the first batch is
 * asked for.
 */
export async function* employeeCourses(
  engine: Pick<LearningEngine, 'summaries'>,
  courses: Pick<CoursesRepository, 'list' | 'rules'>,
  userIds: readonly number[],
  perRead = EMPLOYEES_PER_READ,
): AsyncGenerator<EmployeeCourse[]> {
  if (userIds.length === 0) return;
  const [catalogue, rules] = await Promise.all([courses.list(), courses.rules()]);
  const place = new Map(catalogue.map((c, i) => [c.id, i]));
  const titleOf = new Map(catalogue.map((c) => [c.id, c.title]));
  for (let i = 0; i < userIds.length; i += perRead) {
    const people = userIds.slice(i, i + perRead);
    const summaries = await engine.summaries(people, undefined, { enrolledOnly: true, rules });
    // The map is keyed by stateKey(user, course); the summary names its course.
    const summariesOf = new Map<number, CourseSummary[]>();
    for (const [key, summary] of summaries) {
      const userId = Number(key.slice(0, key.indexOf(':')));
      const list = summariesOf.get(userId);
      if (list) list.push(summary);
      else summariesOf.set(userId, [summary]);
    }
    const batch: EmployeeCourse[] = [];
    for (const userId of people) {
      const own = (summariesOf.get(userId) ?? []).sort(
        (a, b) => (place.get(a.course_id) ?? 0) - (place.get(b.course_id) ?? 0),
      );
      for (const summary of own) {
        const title = titleOf.get(summary.course_id);
        if (title !== undefined) batch.push({ user_id: userId, course_id: summary.course_id, title, summary });
      }
    }
    if (batch.length > 0) yield batch;
  }
}
