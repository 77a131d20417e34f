import { UNCATEGORISED_ID, UNCATEGORISED_NAME, type HomeCategory, type StartedLesson } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import { courseCard } from '../catalogue/cards.js';
import type { LearningEngine, StartedLesson as EngineStartedLesson } from '../progress/service.js';

/** The slider shows the newest few; older unfinished lessons stay reachable from their courses. */
const MAX_STARTED_LESSONS = 20;

/**
 * The learner's home page (docs/product.md §Home): their courses by category and the lessons to continue,
 * each read afresh by one indexed query over the maintained tables (progress/viewer.ts).
 */
export class HomeService {
  constructor(private readonly engine: LearningEngine) {}

  /** Visible courses grouped by live category (category order), the uncategorised last. */
  async courses(userId: number): Promise<HomeCategory[]> {
    const visible = await this.engine.viewerCourses(userId, { visibleOnly: true });
    const categories = new Map<number, HomeCategory & { sort: number }>();
    const loose: HomeCategory = { id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, items: [] };
    for (const { course, summary } of visible) {
      const card = courseCard(course, summary);
      if (course.category_id === null) {
        loose.items.push(card);
        continue;
      }
      // A course whose category is not live belongs to no list (deleting a category deletes its courses).
      if (course.category_name === null) continue;
      let category = categories.get(course.category_id);
      if (!category) {
        category = { id: course.category_id, name: course.category_name, sort: course.category_sort ?? 0, items: [] };
        categories.set(course.category_id, category);
      }
      category.items.push(card);
    }
    const out: HomeCategory[] = [...categories.values()]
      .sort((a, b) => a.sort - b.sort || a.id - b.id)
      .map(({ id, name, items }) => ({ id, name, items }));
    if (loose.items.length > 0) out.push(loose);
    return out;
  }

  /** Started, not completed in the current cycle, of visible courses (the engine decides), newest first. */
  async startedLessons(userId: number): Promise<StartedLesson[]> {
    return this.cards(await this.engine.startedLessons(userId));
  }

  private cards(started: readonly EngineStartedLesson[]): StartedLesson[] {
    return started.slice(0, MAX_STARTED_LESSONS).map((s) => ({
      id: s.lesson_id,
      course_id: s.course_id,
      name: s.name,
      module: s.module,
      section: s.section,
      image: storageUrl(s.image_path ?? s.course_image),
    }));
  }
}
