import type { HomeCourse } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import type { CourseSummary } from '../progress/engine.js';

/** The card fields shared by the home list and the admin catalogue (spec 01 §3, spec 03 §3). */
export function courseCard(
  course: { id: number; title: string; image_path: string | null },
  state: CourseSummary | undefined,
  counts: { groups: number; students: number },
): HomeCourse {
  return {
    id: course.id,
    name: course.title,
    image: storageUrl(course.image_path),
    url: `/courses/${course.id}`,
    groups: counts.groups,
    students: counts.students,
    deadline: state?.deadline ?? null,
    deadline_status: state?.deadline_status ?? null,
    lessons: { total: state?.lessons.total ?? 0, completed: state?.lessons.completed ?? 0 },
    test: { total: state?.tests.total ?? 0, completed: state?.tests.completed ?? 0 },
    progress: state?.progress ?? 0,
    complete: state?.complete ?? false,
  };
}
