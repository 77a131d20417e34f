import type { CatalogueCourse, HomeCourse } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import type { CourseSummary } from '../progress/engine.js';

/** What both cards show of a course, outside the viewer's figures. */
interface CardCourse {
  id: number;
  title: string;
  image_path: string | null;
  /** Study groups the course is assigned to. */
  groups: number;
  /** Learners enrolled. */
  learners: number;
}

/** The card fields shared by the home list and the admin catalogue (docs/product.md §Course card). */
export function courseCard(course: CardCourse, state: CourseSummary | undefined): HomeCourse {
  return {
    id: course.id,
    name: course.title,
    image: storageUrl(course.image_path),
    url: `/courses/${course.id}`,
    groups: course.groups,
    students: course.learners,
    deadline: state?.deadline ?? null,
    deadline_status: state?.deadline_status ?? null,
    lessons: { total: state?.lessons.total ?? 0, completed: state?.lessons.completed ?? 0 },
    test: { total: state?.tests.total ?? 0, completed: state?.tests.completed ?? 0 },
    progress: state?.progress ?? 0,
    complete: state?.complete ?? false,
  };
}

/**
 * The catalogue's card: the home card with the constructor's address and the course's own fields.
 * Written out field by field: an object spread and then extended (`{ ...card, url }`) made each card
 * a slow dictionary object, which cost a millisecond per 200 cards, and as much again to serialize.
 */
export function catalogueCard(
  course: CardCourse & { description: string; is_published: boolean; category_id: number | null },
  state: CourseSummary | undefined,
): CatalogueCourse {
  const card = courseCard(course, state);
  return {
    id: card.id,
    name: card.name,
    description: course.description,
    image: card.image,
    url: `/management/constructor/${course.id}`,
    is_published: course.is_published,
    category_id: course.category_id,
    groups: card.groups,
    students: card.students,
    deadline: card.deadline,
    deadline_status: card.deadline_status,
    lessons: card.lessons,
    test: card.test,
    progress: card.progress,
    complete: card.complete,
  };
}
