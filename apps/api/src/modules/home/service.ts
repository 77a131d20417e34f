import { UNCATEGORISED_ID, UNCATEGORISED_NAME, type HomeCategory, type StartedLesson } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import { courseCard } from '../catalogue/cards.js';
import type { CatalogueRepository } from '../catalogue/repository.js';
import type { CoursesRepository } from '../courses/repository.js';
import { stateKey, type LearningEngine } from '../progress/service.js';

/** The slider shows the newest few; older unfinished lessons stay reachable from their courses. */
const MAX_STARTED_LESSONS = 20;

/** The learner's home page (spec 01 §2.7): their courses by category and the lessons to continue. */
export class HomeService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly courseRepo: CoursesRepository,
    private readonly engine: LearningEngine,
  ) {}

  async courses(userId: number): Promise<HomeCategory[]> {
    const visible = await this.engine.visibleCourses(userId);
    if (visible.length === 0) return [];
    const ids = visible.map((c) => c.id);
    const [categories, courses, groups, totals, states] = await Promise.all([
      this.catalogue.categories(),
      this.courseRepo.list(ids),
      this.catalogue.groupCounts(ids),
      this.engine.totals(ids),
      this.engine.summaries([userId], ids, { rules: visible }),
    ]);
    const card = (c: (typeof courses)[number]) =>
      courseCard(c, states.get(stateKey(userId, c.id)), {
        groups: groups.get(c.id) ?? 0,
        students: totals.get(c.id)?.learners ?? 0,
      });
    const out: HomeCategory[] = categories
      .map((cat) => ({ id: cat.id, name: cat.name, items: courses.filter((c) => c.category_id === cat.id).map(card) }))
      .filter((cat) => cat.items.length > 0);
    const loose = courses.filter((c) => c.category_id === null);
    if (loose.length > 0) out.push({ id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, items: loose.map(card) });
    return out;
  }

  /** Started, not completed in the current cycle, of visible courses (the engine decides), newest first. */
  async startedLessons(userId: number): Promise<StartedLesson[]> {
    const visible = await this.engine.visibleCourseIds(userId);
    const started = (await this.engine.startedLessons(userId, visible)).slice(0, MAX_STARTED_LESSONS);
    const cards = await this.courseRepo.lessonCards(started.map((s) => s.lesson_id));
    return started.flatMap((s) => {
      const card = cards.get(s.lesson_id);
      if (!card) return [];
      return [
        {
          id: card.id,
          course_id: card.course_id,
          name: card.name,
          module: card.module,
          section: card.section,
          image: storageUrl(card.image_path ?? card.course_image),
        },
      ];
    });
  }
}
