import { UNCATEGORISED_ID, UNCATEGORISED_NAME, type HomeCategory, type StartedLesson } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import { courseCard } from '../catalogue/cards.js';
import type { CatalogueRepository } from '../catalogue/repository.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import { stateKey, type LearningEngine } from '../progress/service.js';
import type { HomeRepository } from './repository.js';

/** The slider shows the newest few; older unfinished lessons stay reachable from their courses. */
const MAX_STARTED_LESSONS = 20;

/** The learner's home page (spec 01 §2.7): their courses by category and the lessons to continue. */
export class HomeService {
  constructor(
    private readonly repo: HomeRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly engine: LearningEngine,
    private readonly enrollment: EnrollmentRepository,
  ) {}

  async courses(userId: number): Promise<HomeCategory[]> {
    const ids = await this.engine.visibleCourseIds(userId);
    if (ids.length === 0) return [];
    const [categories, courses, groups, students, states] = await Promise.all([
      this.catalogue.categories(),
      this.catalogue.courses(ids),
      this.catalogue.groupCounts(ids),
      this.enrollment.countByCourse(ids),
      this.engine.states([userId], ids),
    ]);
    const card = (c: (typeof courses)[number]) =>
      courseCard(c, states.get(stateKey(userId, c.id)), {
        groups: groups.get(c.id) ?? 0,
        students: students.get(c.id) ?? 0,
      });
    const out: HomeCategory[] = categories
      .map((cat) => ({ id: cat.id, name: cat.name, items: courses.filter((c) => c.category_id === cat.id).map(card) }))
      .filter((cat) => cat.items.length > 0);
    const loose = courses.filter((c) => c.category_id === null);
    if (loose.length > 0) out.push({ id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, items: loose.map(card) });
    return out;
  }

  async startedLessons(userId: number): Promise<StartedLesson[]> {
    const rows = await this.repo.startedLessons(userId);
    if (rows.length === 0) return [];
    const visible = new Set(await this.engine.visibleCourseIds(userId));
    const completed = await this.repo.completedLessonIds(
      userId,
      rows.map((r) => r.id),
    );
    const seen = new Set<number>();
    const out: StartedLesson[] = [];
    for (const r of rows) {
      if (out.length >= MAX_STARTED_LESSONS) break;
      if (seen.has(r.id) || !visible.has(r.course_id)) continue;
      const finishedAt = completed.get(r.id);
      if (finishedAt && r.started_at && finishedAt >= r.started_at) continue;
      seen.add(r.id);
      out.push({
        id: r.id,
        course_id: r.course_id,
        name: r.name,
        module: r.module,
        section: r.section,
        image: storageUrl(r.image_path ?? r.course_image),
      });
    }
    return out;
  }
}
