import {
  UNCATEGORISED_ID,
  UNCATEGORISED_NAME,
  startedLessonsResponse,
  userCoursesHomeResponse,
  type HomeCategory,
  type StartedLesson,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { ReadVersions } from '../../db/versions.js';
import type { Clock } from '../../platform/clock.js';
import { jsonWriterFor } from '../../platform/serializer.js';
import { storageUrl } from '../../platform/storageUrl.js';
import { courseCard } from '../catalogue/cards.js';
import { summaryChangesAt } from '../progress/engine.js';
import type { LearningEngine, StartedLesson as EngineStartedLesson } from '../progress/service.js';
import { KeptAnswers, type MadeAnswer } from './keptAnswers.js';

/** The slider shows the newest few; older unfinished lessons stay reachable from their courses. */
const MAX_STARTED_LESSONS = 20;
/** Viewers whose last answers a process keeps, per call (a learner's list is ~15 kB at 40 courses). */
const KEPT_VIEWERS = 2_000;

/** What the routes write (the same writers as their schemas'), for the answers kept as text. */
const writeCourses = jsonWriterFor(userCoursesHomeResponse);
const writeStarted = jsonWriterFor(startedLessonsResponse);

/** The signed-in viewer of a home call, with the versions read with their session (none: nothing kept). */
export interface HomeViewer {
  userId: number;
  versions: ReadVersions | undefined;
}

/**
 * The learner's home page (spec 01 §2.7): their courses by category and the lessons to continue. A
 * viewer's answers are kept as text while nothing they show has changed (keptAnswers.ts), so that a
 * repeated view costs the session lookup alone.
 */
export class HomeService {
  readonly #courses = new KeptAnswers(KEPT_VIEWERS);
  readonly #started = new KeptAnswers(KEPT_VIEWERS);

  constructor(
    private readonly engine: LearningEngine,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /** The JSON text of GET /api/user/courses. */
  coursesAnswer(viewer: HomeViewer): Promise<Buffer> {
    return this.answer(this.#courses, viewer, async (now) => {
      const { categories, until } = await this.categorised(viewer.userId, now);
      return { text: writeCourses({ result: { success: true, categories } }), until };
    });
  }

  /** The JSON text of GET /api/user/started-lessons. */
  startedLessonsAnswer(viewer: HomeViewer): Promise<Buffer> {
    return this.answer(this.#started, viewer, async () => {
      const { items, until } = await this.engine.startedLessonsUntil(viewer.userId);
      return { text: writeStarted({ result: { success: true, items: this.cards(items) } }), until };
    });
  }

  private answer(kept: KeptAnswers, { userId, versions }: HomeViewer, make: (now: number) => Promise<MadeAnswer>) {
    // Read before the rows: an answer is kept only up to what time changes after this instant.
    const now = this.clock.now().getTime();
    // Only committed rows may be kept: never inside a transaction.
    return kept.answer(userId, this.uow.inUnit ? undefined : versions, now, () => make(now));
  }

  /** Visible courses grouped by live category (category order), the uncategorised last. */
  async courses(userId: number): Promise<HomeCategory[]> {
    return (await this.categorised(userId, this.clock.now().getTime())).categories;
  }

  private async categorised(userId: number, now: number): Promise<{ categories: HomeCategory[]; until: number }> {
    const visible = await this.engine.viewerCourses(userId, { visibleOnly: true });
    let until = Infinity;
    const categories = new Map<number, HomeCategory & { sort: number }>();
    const loose: HomeCategory = { id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, items: [] };
    for (const { course, summary } of visible) {
      if (summary) until = Math.min(until, summaryChangesAt(course, summary, course.state?.valid_until ?? null, now));
      const card = courseCard(course, summary, { groups: course.groups, students: course.learners });
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
    return { categories: out, until };
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
