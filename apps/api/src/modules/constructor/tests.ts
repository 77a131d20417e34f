import {
  DEFAULT_TEST_NAME,
  NEW_TEST_SETTINGS,
  TEST_MESSAGES as T,
  testSettings,
  type ConstructorTest,
  type SaveQuestion,
  type TestQuestion,
  type TestSettings,
  type UpdateTestRequest,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { CourseStructureRepository } from '../courses/structure.js';
import type { TestRow, TestsRepository } from '../courses/tests.js';
import type { FilesRepository } from '../files/repository.js';
import type { ConstructorService } from './service.js';

const toTest = (row: TestRow): ConstructorTest => {
  const { course_id: _course, content_version: _version, ...rest } = row;
  return { ...rest, type: 'test' };
};

/** The stored settings merged with a change must still keep every switch rule (docs/product.md §Test authoring). */
function checkedSettings(current: TestSettings, change: Partial<TestSettings>): TestSettings {
  const merged = { ...current, ...change };
  // The question bank draws its own order: random order is off while it is on.
  if (merged.has_question_bank) merged.randomize_questions = false;
  const parsed = testSettings.safeParse(merged);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
    throw unprocessable(parsed.error.issues[0]?.message ?? T.badQuestions, errors);
  }
  return parsed.data;
}

const pickSettings = (v: Partial<TestSettings> & Record<string, unknown>): Partial<TestSettings> =>
  Object.fromEntries(Object.entries(v).filter(([k]) => k in NEW_TEST_SETTINGS)) as Partial<TestSettings>;

/**
 * Test authoring (issue 11): tests share the module's item order with lessons; questions are saved as
 * a whole list in one transaction, and attempts keep their own snapshot, so no save changes them.
 */
export class TestAuthoring {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly tests: TestsRepository,
    private readonly structure: CourseStructureRepository,
    private readonly constructorService: ConstructorService,
    private readonly files: FilesRepository,
    private readonly clock: Clock,
  ) {}

  private now() {
    return iso(this.clock.now());
  }

  private async live(testId: number, courseId?: number): Promise<TestRow> {
    const test = await this.tests.find(testId, courseId);
    if (!test) throw notFound(T.notFound);
    return test;
  }

  async test(courseId: number, testId: number): Promise<ConstructorTest> {
    return toTest(await this.live(testId, courseId));
  }

  create(
    input: Partial<TestSettings> & { name?: string | undefined; course_id: number; module_id: number },
  ): Promise<ConstructorTest> {
    return this.uow.run(async () => {
      const module = await this.constructorService.liveModule(input.course_id, input.module_id);
      const settings = checkedSettings(NEW_TEST_SETTINGS, pickSettings(input));
      const max = await this.structure.maxItemSortOrder(module.id);
      const now = this.now();
      const id = await this.tests.insert(
        { ...settings, module_id: module.id, name: input.name || DEFAULT_TEST_NAME, sort_order: (max ?? -1) + 1 },
        now,
      );
      await this.constructorService.refreshModulePublished(module, now);
      return toTest(await this.live(id));
    });
  }

  update(
    courseId: number,
    testId: number,
    change: UpdateTestRequest,
  ): Promise<{ item: ConstructorTest; message: string }> {
    return this.uow.run(async () => {
      const current = await this.live(testId, courseId);
      const settingsChange = pickSettings(change);
      const hasSettings = Object.keys(settingsChange).length > 0;
      const settings = hasSettings ? checkedSettings(current, settingsChange) : {};
      const now = this.now();
      await this.tests.update(
        testId,
        {
          ...settings,
          ...(change.name === undefined ? {} : { name: change.name }),
          ...(change.is_published === undefined ? {} : { is_published: change.is_published }),
        },
        now,
      );
      if (change.is_published !== undefined) {
        await this.constructorService.refreshModulePublished(
          await this.constructorService.liveModule(courseId, current.module_id),
          now,
        );
      }
      const message = hasSettings
        ? T.settingsSaved
        : change.is_published === undefined
          ? T.renamed
          : change.is_published
            ? T.published
            : T.unpublished;
      return { item: toTest(await this.live(testId)), message };
    });
  }

  delete(testId: number): Promise<void> {
    return this.uow.run(async () => {
      const test = await this.live(testId);
      const now = this.now();
      await this.tests.softDelete(testId, now);
      await this.constructorService.refreshModulePublished(
        await this.constructorService.liveModule(test.course_id, test.module_id),
        now,
      );
    });
  }

  async questions(testId: number): Promise<TestQuestion[]> {
    await this.live(testId);
    const questions = await this.tests.questions(testId);
    const answers = await this.tests.answers(questions.map((q) => q.id));
    return questions.map((q) => ({
      ...q,
      answers: answers
        .filter((a) => a.question_id === q.id)
        .map((a) => ({ id: a.id, answer_text: a.answer_text, is_correct: a.is_correct, image_path: a.image_path })),
    }));
  }

  /**
   * Replaces the question list: questions and answers with a temporary id are inserted, the others
   * updated, those left out removed (questions softly). `images` holds the answer images uploaded
   * with this save, by `question key.answer key`.
   */
  saveQuestions(testId: number, list: SaveQuestion[], images: ReadonlyMap<string, string>): Promise<TestQuestion[]> {
    return this.uow.run(async () => {
      await this.live(testId);
      const existingQuestions = new Set((await this.tests.questions(testId)).map((q) => q.id));
      const existingAnswers = await this.tests.answers([...existingQuestions]);
      const answerOwner = new Map(existingAnswers.map((a) => [a.id, a.question_id]));
      const keptImages = await this.files.existingPaths(
        list.flatMap((q) => q.answers.flatMap((a) => (a.image_path ? [a.image_path] : []))),
      );
      const seen = new Set<number>();
      for (const q of list) {
        if (typeof q.id === 'number' && (!existingQuestions.has(q.id) || seen.has(q.id))) {
          throw unprocessable(T.unknownQuestion);
        }
        if (typeof q.id === 'number') seen.add(q.id);
        if (!q.answers.some((a) => a.is_correct)) throw unprocessable(T.noCorrect(q.question_text));
        for (const a of q.answers) {
          if (typeof a.id === 'number' && answerOwner.get(a.id) !== q.id) throw unprocessable(T.unknownQuestion);
          const image =
            images.get(`${q.id}.${a.id}`) ?? (a.image_path && keptImages.has(a.image_path) ? a.image_path : null);
          if (a.answer_text === '' && !image) throw unprocessable(T.emptyAnswer(q.question_text));
        }
      }
      const now = this.now();
      await this.tests.softDeleteQuestionsExcept(testId, [...seen], now);
      for (const q of list) {
        const values = { title: q.title ?? '', type: q.type, question_text: q.question_text, sort_order: q.sort_order };
        let questionId: number;
        if (typeof q.id === 'number') {
          questionId = q.id;
          await this.tests.updateQuestion(questionId, values, now);
        } else questionId = await this.tests.insertQuestion(testId, values, now);
        const keep: number[] = [];
        const rows: { id: number | null; values: Parameters<TestsRepository['insertAnswer']>[0] }[] = [];
        for (const [index, a] of q.answers.entries()) {
          const image =
            images.get(`${q.id}.${a.id}`) ?? (a.image_path && keptImages.has(a.image_path) ? a.image_path : null);
          rows.push({
            id: typeof a.id === 'number' ? a.id : null,
            values: {
              question_id: questionId,
              answer_text: a.answer_text,
              is_correct: a.is_correct,
              image_path: image,
              sort_order: index,
            },
          });
          if (typeof a.id === 'number') keep.push(a.id);
        }
        await this.tests.deleteAnswersExcept(questionId, keep);
        for (const r of rows) {
          if (r.id !== null) await this.tests.updateAnswer(r.id, r.values, now);
          else await this.tests.insertAnswer(r.values, now);
        }
      }
      return this.questions(testId);
    });
  }
}
