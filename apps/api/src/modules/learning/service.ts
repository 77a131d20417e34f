import {
  LEARNING_MESSAGES as L,
  type CourseSummary,
  type ItemRef,
  type LearnerBlock,
  type LearnerModule,
  type LessonContents,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { can } from '../../platform/access.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { SessionUser } from '../../platform/sessions.js';
import { storageUrl } from '../../platform/storageUrl.js';
import type { CoursesRepository, OutlineModule } from '../courses/repository.js';
import type { CourseStructureRepository } from '../courses/structure.js';
import type { CourseState, CourseSummary as StateSummary, ItemState } from '../progress/engine.js';
import type { ProgressRepository } from '../progress/repository.js';
import { stateKey, type LearningEngine } from '../progress/service.js';

/** SCORM items' results, read from the module that owns them (app.ts hands modules/scorm's in). */
export interface PackageResults {
  of(
    userId: number,
    lessonIds: readonly number[],
    since: string | null,
  ): Promise<Map<number, { score: number | null }>>;
}

export interface SeenCourse {
  state: CourseState;
  outline: OutlineModule[];
}

/**
 * The learner's side of a course (docs/product.md §Course page, docs/rules.md §Visibility, §Progress, §Lessons): what
 * the user may see, in the order of the course, with their state from the learning engine.
 */
export class LearningService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly courses: CoursesRepository,
    private readonly structure: CourseStructureRepository,
    private readonly progress: ProgressRepository,
    private readonly engine: LearningEngine,
    private readonly clock: Clock,
    private readonly packageResults: PackageResults,
  ) {}

  /** A course the user may see (staff preview every course), else 404 as if it did not exist. */
  async seen(user: SessionUser, courseId: number): Promise<SeenCourse> {
    const states = await this.engine.states([user.id], [courseId]);
    const state = states.get(stateKey(user.id, courseId));
    if (!state || !(state.visible || can(user.role, 'constructor.manage'))) throw notFound(L.courseNotFound);
    return { state, outline: await this.courses.publishedOutline(courseId) };
  }

  /**
   * The user's summary of a course they may see (staff preview every course), else 404 as `seen`:
   * visibility, cycle and deadline from the maintained row in one query, without the per-item states.
   * The course is named by its id or by one of its tests.
   */
  async seenSummary(user: SessionUser, course: { courseId: number } | { courseOfTest: number }): Promise<StateSummary> {
    const [found] = await this.engine.viewerCourses(user.id, course);
    const summary = found?.summary;
    if (!summary || !(summary.visible || can(user.role, 'constructor.manage'))) throw notFound(L.courseNotFound);
    return summary;
  }

  /** The course's published modules and items in order (the previous and next buttons). */
  outline(courseId: number): Promise<OutlineModule[]> {
    return this.courses.publishedOutline(courseId);
  }

  async modules(user: SessionUser, courseId: number): Promise<LearnerModule[]> {
    const { state, outline } = await this.seen(user, courseId);
    const byKey = new Map(state.items.map((i) => [`${i.type}:${i.id}`, i]));
    const packages = outline.flatMap((m) => m.items).filter((i) => i.kind === 'scorm');
    const results = await this.packageResults.of(
      user.id,
      packages.map((i) => i.id),
      cycleSince(state),
    );
    return outline.map((m) => {
      const items = m.items.map((i) => {
        const s = byKey.get(`${i.type}:${i.id}`);
        const scorm = i.kind === 'scorm' ? { kind: 'scorm' as const, score: results.get(i.id)?.score ?? null } : {};
        return {
          id: i.id,
          type: i.type,
          name: i.name,
          image: storageUrl(i.image_path),
          link: `/courses/${courseId}/${i.type}/${i.id}`,
          started_at: s?.started_at ?? null,
          completed_at: s?.completed_at ?? null,
          is_passed: i.type === 'test' ? testPassed(s) : null,
          ...scorm,
        };
      });
      const complete = m.items.every((i) => byKey.get(`${i.type}:${i.id}`)?.status === 'completed');
      return { id: m.id, name: m.name, status: complete ? 'complete' : 'process', lessonsList: items };
    });
  }

  async summary(user: SessionUser, courseId: number): Promise<CourseSummary> {
    const { state } = await this.seen(user, courseId);
    const course = await this.courses.detail(courseId);
    if (!course) throw notFound(L.courseNotFound);
    return {
      id: course.id,
      title: course.title,
      description: course.description,
      image: storageUrl(course.image_path),
      lessons_count: state.lessons.total,
      completed_lessons_count: state.lessons.completed,
      tests_count: state.tests.total,
      completed_tests_count: state.tests.completed,
      progress: state.progress,
      complete: state.complete,
      deadline: state.deadline,
      deadline_status: state.deadline_status,
      // The constructor's fields are for those who build courses.
      ...(can(user.role, 'constructor.manage')
        ? { is_published: course.is_published, accessibility: course.accessibility }
        : {}),
    };
  }

  async lessonContents(user: SessionUser, courseId: number, lessonId: number): Promise<LessonContents> {
    const { state, outline } = await this.seen(user, courseId);
    const order = outline.flatMap((m) => m.items);
    const at = order.findIndex((i) => i.type === 'lesson' && i.id === lessonId);
    const lesson = order[at];
    if (!lesson) throw notFound(L.lessonNotFound);
    const ref = (i: (typeof order)[number] | undefined): ItemRef | null => (i ? { type: i.type, id: i.id } : null);
    const item = state.items.find((i) => i.type === 'lesson' && i.id === lessonId);
    const blocks = await this.structure.blocks(lessonId);
    return {
      success: true,
      contents: blocks.map((b): LearnerBlock => ({
        id: b.id,
        type: b.type as LearnerBlock['type'],
        content: b.content,
        file_path: b.file_path,
        url: storageUrl(b.file_path),
        original_filename: b.original_filename,
        sort_order: b.sort_order,
      })),
      name: lesson.name,
      kind: lesson.kind,
      started_at: item?.started_at ?? null,
      completed_at: item?.completed_at ?? null,
      previous_item: ref(order[at - 1]),
      next_item: ref(order[at + 1]),
      server_time: iso(this.clock.now()),
    };
  }

  /** A record of the user in the course was written: its learning state follows, in the same unit. */
  recorded(userId: number, courseId: number): Promise<void> {
    return this.engine.recordChanged(userId, courseId);
  }

  /**
   * Start and complete (docs/rules.md §Lessons): within the current cycle, start sets `started_at`
   * once and complete `completed_at` once; both may be repeated, and completing needs no start.
   */
  async mark(
    user: SessionUser,
    lessonId: number,
    what: 'start' | 'complete',
  ): Promise<{ started_at: string | null; completed_at: string | null }> {
    const courseId = await this.structure.lessonCourseId(lessonId);
    if (courseId === undefined) throw notFound(L.lessonNotFound);
    const { state, outline } = await this.seen(user, courseId);
    const listed = outline.flatMap((m) => m.items).find((i) => i.type === 'lesson' && i.id === lessonId);
    if (!listed) throw notFound(L.lessonNotFound);
    // A package reports its own completion (docs/rules.md §SCORM packages): a click cannot.
    if (what === 'complete' && listed.kind === 'scorm') {
      throw unprocessable(L.scormCompletesItself, { lesson: [L.scormCompletesItself] });
    }
    return this.uow.run(() => this.writeMark(user.id, courseId, lessonId, cycleSince(state), what));
  }

  /** Where the user's current cycle of the course starts (null: the first cycle counts all history). */
  async cycleSince(userId: number, courseId: number): Promise<string | null> {
    const state = (await this.engine.states([userId], [courseId])).get(stateKey(userId, courseId));
    return state ? cycleSince(state) : null;
  }

  /**
   * Start or complete in the caller's unit of work, for a caller that checked the user may reach the
   * lesson (the lesson page, or a SCORM package's launch): the record, then the learning state.
   */
  async writeMark(
    userId: number,
    courseId: number,
    lessonId: number,
    since: string | null,
    what: 'start' | 'complete',
  ): Promise<{ started_at: string | null; completed_at: string | null }> {
    const now = iso(this.clock.now());
    const row = await this.progress.lessonRow(userId, lessonId, since);
    if (!row) {
      await this.progress.insertLessonRow(
        {
          user_id: userId,
          lesson_id: lessonId,
          started_at: what === 'start' ? now : null,
          completed_at: what === 'complete' ? now : null,
        },
        now,
      );
    } else if (what === 'complete') {
      await this.progress.fillLessonTime(row.id, 'completed_at', now);
    } else if (row.completed_at === null) {
      // A lesson completed without a start keeps no start: its time spent is 00:00:00.
      await this.progress.fillLessonTime(row.id, 'started_at', now);
    }
    await this.recorded(userId, courseId);
    const after = await this.progress.lessonRow(userId, lessonId, since);
    return { started_at: after?.started_at ?? null, completed_at: after?.completed_at ?? null };
  }
}

const cycleSince = (state: Pick<CourseState, 'cycle' | 'cycle_start'>): string | null =>
  state.cycle > 1 ? state.cycle_start : null;

function testPassed(state: ItemState | undefined): boolean | null {
  if (state?.status === 'completed') return true;
  if (state?.status === 'failed') return false;
  return null;
}
