import {
  CONSTRUCTOR_MESSAGES as M,
  courseSettingsProblems,
  DEFAULT_LESSON_NAME,
  DEFAULT_SCORM_NAME,
  type LessonKind,
  type ConstructorCourse,
  type CourseDaySettings,
  type ConstructorLesson,
  type ConstructorModule,
  type LessonBlock,
  type ModuleLesson,
  type SaveBlock,
  type UpdateCourseRequest,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { CoursesService } from '../courses/service.js';
import type { CourseStructureRepository, ItemRow, ItemType, ModuleRow } from '../courses/structure.js';
import type { FilesRepository } from '../files/repository.js';
import type { LearningEngine } from '../progress/service.js';
import { stateKey } from '../progress/service.js';
import { blockValues, toLessonBlock } from './blocks.js';

const lessonItem = (row: ItemRow): ModuleLesson => ({
  id: row.id,
  name: row.name,
  module_id: row.module_id,
  is_published: row.is_published,
  sort_order: row.sort_order,
  type: 'lesson',
  kind: row.kind ?? 'lesson',
});

/** What the constructor asks of the SCORM module, which owns the packages (app.ts hands it in). */
export interface PackagePresence {
  hasPackage(lessonId: number): Promise<boolean>;
}

const DAY_SETTING_KEYS = [
  'has_deadline',
  'deadline_value',
  'deadline_warning_days',
  'has_recurrence',
  'recurrence_value',
] as const satisfies readonly (keyof CourseDaySettings)[];

/**
 * A change of the deadline or recurrence is checked together with the stored values it leaves as
 * they are (the contract's rule); a change of other fields is not held back by stored values.
 */
function checkDaySettings(stored: ConstructorCourse, change: UpdateCourseRequest): void {
  if (!DAY_SETTING_KEYS.some((key) => change[key] !== undefined)) return;
  const merged: CourseDaySettings = {
    has_deadline: change.has_deadline ?? stored.has_deadline,
    deadline_value: change.deadline_value ?? stored.deadline_value,
    deadline_warning_days: change.deadline_warning_days ?? stored.deadline_warning_days,
    has_recurrence: change.has_recurrence ?? stored.has_recurrence,
    recurrence_value: change.recurrence_value ?? stored.recurrence_value,
  };
  const problems = Object.entries(courseSettingsProblems(merged));
  const [first] = problems;
  if (first) throw unprocessable(first[1], Object.fromEntries(problems.map(([field, m]) => [field, [m]])));
}

/**
 * The course constructor (docs/product.md §Constructor, docs/rules.md §Constructor): every change is one unit of
 * work, checked against live rows of the course named in the path.
 */
export class ConstructorService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly courses: CoursesRepository,
    private readonly structure: CourseStructureRepository,
    private readonly deletion: CoursesService,
    private readonly files: FilesRepository,
    private readonly engine: LearningEngine,
    private readonly clock: Clock,
    private readonly packages: PackagePresence,
  ) {}

  private now(): string {
    return iso(this.clock.now());
  }

  async course(id: number): Promise<ConstructorCourse> {
    const row = await this.courses.detail(id);
    if (!row) throw notFound(M.courseNotFound);
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      image: row.image_path ? `storage/${row.image_path}` : null,
      is_published: row.is_published,
      has_deadline: row.has_deadline,
      deadline_type: row.deadline_type,
      deadline_value: row.deadline_value,
      deadline_unit: 'days',
      deadline_warning_days: row.deadline_warning_days,
      has_recurrence: row.has_recurrence,
      recurrence_value: row.recurrence_value,
      recurrence_unit: 'days',
      accessibility: row.accessibility,
    };
  }

  /** The header's title and description, or the settings; the answer says which was saved. */
  updateCourse(id: number, change: UpdateCourseRequest): Promise<{ course: ConstructorCourse; message: string }> {
    return this.uow.run(async () => {
      const stored = await this.course(id);
      checkDaySettings(stored, change);
      await this.courses.update(id, change, this.now());
      const settings = Object.keys(change).some((k) => k !== 'title' && k !== 'description');
      if (settings) await this.engine.courseChanged(id);
      return { course: await this.course(id), message: settings ? M.settingsSaved : M.saved };
    });
  }

  async setCourseImage(id: number, path: string): Promise<string> {
    await this.uow.run(async () => {
      await this.course(id);
      await this.courses.update(id, { image_path: path }, this.now());
    });
    return `storage/${path}`;
  }

  publishCourse(id: number, isPublished: boolean): Promise<void> {
    return this.uow.run(async () => {
      await this.course(id);
      await this.courses.update(id, { is_published: isPublished }, this.now());
    });
  }

  async deleteCourse(id: number): Promise<void> {
    const deleted = await this.deletion.delete({ ids: [id] }, this.now());
    if (deleted.length === 0) throw notFound(M.courseNotFound);
  }

  /** Modules with their lessons and tests in order, and the viewer's own status in each. */
  async modules(courseId: number, viewerId: number): Promise<ConstructorModule[]> {
    await this.course(courseId);
    const modules = await this.structure.modules(courseId);
    const ids = modules.map((m) => m.id);
    const [lessons, tests, states] = await Promise.all([
      this.structure.items('lesson', ids),
      this.structure.items('test', ids),
      this.engine.states([viewerId], [courseId]),
    ]);
    const done = new Set(
      (states.get(stateKey(viewerId, courseId))?.items ?? [])
        .filter((i) => i.status === 'completed')
        .map((i) => `${i.type}:${i.id}`),
    );
    return modules.map((m) => {
      const ownLessons = lessons.filter((l) => l.module_id === m.id);
      const ownTests = tests.filter((t) => t.module_id === m.id);
      const published = [
        ...ownLessons.filter((l) => l.is_published).map((l) => `lesson:${l.id}`),
        ...ownTests.filter((t) => t.is_published).map((t) => `test:${t.id}`),
      ];
      const complete = published.length > 0 && published.every((key) => done.has(key));
      return {
        ...this.moduleFields(m),
        status: complete ? ('complete' as const) : ('process' as const),
        lessons: ownLessons.map(lessonItem),
        tests: ownTests.map((t) => ({ ...lessonItem(t), type: 'test' as const })),
      };
    });
  }

  private moduleFields(m: ModuleRow) {
    return {
      id: m.id,
      name: m.name,
      course_id: m.course_id,
      sort_order: m.sort_order,
      is_published: m.is_published,
      published_at: m.published_at,
    };
  }

  async liveModule(courseId: number, moduleId: number): Promise<ModuleRow> {
    const found = await this.structure.module(courseId, moduleId);
    if (!found) throw notFound(M.moduleNotFound);
    return found;
  }

  createModule(courseId: number, name: string): Promise<ConstructorModule> {
    return this.uow.run(async () => {
      await this.course(courseId);
      // Module order is sequential from 0: a new module goes last whatever order the client guessed.
      const max = await this.structure.maxModuleSortOrder(courseId);
      const row = await this.structure.insertModule(courseId, name, (max ?? -1) + 1, this.now());
      return { ...this.moduleFields(row), status: 'process' as const, lessons: [], tests: [] };
    });
  }

  renameModule(courseId: number, moduleId: number, name: string): Promise<void> {
    return this.uow.run(async () => {
      await this.liveModule(courseId, moduleId);
      await this.structure.updateModule(moduleId, { name }, this.now());
    });
  }

  deleteModule(courseId: number, moduleId: number): Promise<void> {
    return this.uow.run(async () => {
      await this.liveModule(courseId, moduleId);
      const now = this.now();
      await this.structure.softDeleteModule(moduleId, now);
      await this.renumberModules(courseId, now);
      await this.engine.courseChanged(courseId);
    });
  }

  private async renumberModules(courseId: number, now: string): Promise<void> {
    const modules = await this.structure.modules(courseId);
    for (const [index, m] of modules.entries()) {
      if (m.sort_order !== index) await this.structure.updateModule(m.id, { sort_order: index }, now);
    }
  }

  /** The order sent for every module of the course; stored as 0, 1, 2… in that order. */
  sortModules(courseId: number, order: { id: number; sort_order: number }[]): Promise<void> {
    return this.uow.run(async () => {
      await this.course(courseId);
      const modules = await this.structure.modules(courseId);
      const sent = new Set(order.map((o) => o.id));
      if (sent.size !== order.length || sent.size !== modules.length || modules.some((m) => !sent.has(m.id))) {
        throw unprocessable(M.sortMismatch);
      }
      const sorted = [...order].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
      const now = this.now();
      for (const [index, o] of sorted.entries()) await this.structure.updateModule(o.id, { sort_order: index }, now);
    });
  }

  /** Lessons and tests of a module share one order: the merged list sent, stored as 0, 1, 2… */
  sortItems(
    courseId: number,
    moduleId: number,
    order: { id: number; type: ItemType; sort_order: number }[],
  ): Promise<void> {
    return this.uow.run(async () => {
      await this.liveModule(courseId, moduleId);
      const [lessons, tests] = await Promise.all([
        this.structure.items('lesson', [moduleId]),
        this.structure.items('test', [moduleId]),
      ]);
      const existing = new Set([...lessons.map((l) => `lesson:${l.id}`), ...tests.map((t) => `test:${t.id}`)]);
      const sent = new Set(order.map((o) => `${o.type}:${o.id}`));
      if (sent.size !== order.length || sent.size !== existing.size || [...sent].some((k) => !existing.has(k))) {
        throw unprocessable(M.sortMismatch);
      }
      const sorted = [...order].sort((a, b) => a.sort_order - b.sort_order);
      const now = this.now();
      for (const [index, o] of sorted.entries()) await this.structure.setItemOrder(o.type, o.id, index, now);
    });
  }

  createLesson(moduleId: number, name: string | undefined, kind: LessonKind = 'lesson'): Promise<ModuleLesson> {
    return this.uow.run(async () => {
      const module = await this.structure.moduleById(moduleId);
      if (!module) throw notFound(M.moduleNotFound);
      const max = await this.structure.maxItemSortOrder(moduleId);
      const now = this.now();
      const fallback = kind === 'scorm' ? DEFAULT_SCORM_NAME : DEFAULT_LESSON_NAME;
      const row = await this.structure.insertLesson(moduleId, name || fallback, (max ?? -1) + 1, now, kind);
      await this.refreshModulePublished(module, now);
      return lessonItem(row);
    });
  }

  private async liveLesson(courseId: number, lessonId: number) {
    const lesson = await this.structure.lesson(courseId, lessonId);
    if (!lesson) throw notFound(M.lessonNotFound);
    return lesson;
  }

  async lesson(courseId: number, lessonId: number): Promise<ConstructorLesson> {
    const lesson = await this.liveLesson(courseId, lessonId);
    const blocks = await this.structure.blocks(lessonId);
    return {
      id: lesson.id,
      name: lesson.name,
      description: lesson.description,
      module_id: lesson.module_id,
      is_published: lesson.is_published,
      sort_order: lesson.sort_order,
      type: 'lesson',
      kind: lesson.kind,
      contents: blocks.map(toLessonBlock),
    };
  }

  /** A rename, or a rename with the published flag; the module's flag follows its items. */
  updateLesson(
    courseId: number,
    lessonId: number,
    change: { name: string; is_published?: boolean | undefined },
  ): Promise<{ item: ModuleLesson; message: string }> {
    return this.uow.run(async () => {
      const lesson = await this.liveLesson(courseId, lessonId);
      // A SCORM item is published with its package: a learner never opens an empty one.
      if (change.is_published === true && lesson.kind === 'scorm' && !(await this.packages.hasPackage(lessonId))) {
        throw unprocessable(M.scormPublishWithoutPackage, { is_published: [M.scormPublishWithoutPackage] });
      }
      const now = this.now();
      await this.structure.updateLesson(
        lessonId,
        { name: change.name, ...(change.is_published === undefined ? {} : { is_published: change.is_published }) },
        now,
      );
      const module = await this.liveModule(courseId, lesson.module_id);
      await this.refreshModulePublished(module, now, change.is_published !== undefined);
      const message =
        change.is_published === undefined
          ? M.lessonRenamed
          : change.is_published
            ? M.lessonPublished
            : M.lessonUnpublished;
      const updated = await this.liveLesson(courseId, lessonId);
      return { item: lessonItem(updated), message };
    });
  }

  deleteLesson(lessonId: number): Promise<void> {
    return this.uow.run(async () => {
      const courseId = await this.structure.lessonCourseId(lessonId);
      if (courseId === undefined) throw notFound(M.lessonNotFound);
      const lesson = await this.liveLesson(courseId, lessonId);
      const now = this.now();
      await this.structure.softDeleteLesson(lessonId, now);
      await this.refreshModulePublished(await this.liveModule(courseId, lesson.module_id), now);
    });
  }

  /**
   * Replaces the lesson's blocks in one transaction: blocks with a temporary id are inserted, those
   * left out are deleted, the rest updated; the answer holds the saved blocks with their real ids.
   */
  saveContents(courseId: number, lessonId: number, blocks: SaveBlock[]): Promise<LessonBlock[]> {
    return this.uow.run(async () => {
      await this.liveLesson(courseId, lessonId);
      const existing = new Set((await this.structure.blocks(lessonId)).map((b) => b.id));
      const sentPaths = blocks.flatMap((b) => {
        const c = b.content as { file_path?: unknown } | null | undefined;
        const fromContent = c && typeof c === 'object' && typeof c.file_path === 'string' ? [c.file_path] : [];
        return [...fromContent, ...(b.file_path ? [b.file_path] : [])];
      });
      const known = await this.files.existingPaths(sentPaths.map((p) => p.replace(/^\/?storage\//, '')));
      const rows = blocks.map((b, index) => ({ id: b.id, values: blockValues(b, index, known) }));
      const seen = new Set<number>();
      for (const [index, r] of rows.entries()) {
        if (typeof r.id === 'number' && (!existing.has(r.id) || seen.has(r.id))) {
          throw unprocessable(M.unknownBlock, { [`contents.${index}`]: [M.unknownBlock] });
        }
        if (typeof r.id === 'number') seen.add(r.id);
      }
      const now = this.now();
      await this.structure.deleteBlocksExcept(lessonId, [...seen]);
      for (const r of rows) {
        if (typeof r.id === 'number') await this.structure.updateBlock(r.id, r.values, now);
        else await this.structure.insertBlock(lessonId, r.values, now);
      }
      return (await this.structure.blocks(lessonId)).map(toLessonBlock);
    });
  }

  /**
   * After its items changed: a module is published, with the time it became so, when it has items
   * and all are published; the course's learning state follows its published items.
   */
  async refreshModulePublished(module: ModuleRow, now: string, publishedItemsChanged = true): Promise<void> {
    if (publishedItemsChanged) await this.engine.courseChanged(module.course_id);
    const [lessons, tests] = await Promise.all([
      this.structure.items('lesson', [module.id]),
      this.structure.items('test', [module.id]),
    ]);
    const items = [...lessons, ...tests];
    const published = items.length > 0 && items.every((i) => i.is_published);
    if (published === module.is_published) return;
    await this.structure.updateModule(
      module.id,
      { is_published: published, published_at: published ? now : null },
      now,
    );
  }

  /** The lesson an upload is for must be a live lesson (its course is then the one the file joins). */
  async checkLesson(lessonId: number): Promise<void> {
    if ((await this.structure.lessonCourseId(lessonId)) === undefined) throw notFound(M.lessonNotFound);
  }
}
