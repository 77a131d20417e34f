import { Readable } from 'node:stream';
import type { TestSettings } from '@lms/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { UPLOADS_PREFIX, type FileStore } from '../platform/fileStore/fileStore.js';
import {
  CATEGORIES,
  COURSES,
  DEFAULT_TEST_SETTINGS,
  FILES,
  VIDEO,
  type Block,
  type CategoryKey,
  type DemoFile,
  type FileKey,
} from './content.js';
import { must, namedRowId, type DemoTimes } from './seedKit.js';

/** A seeded test with the ids of its questions and options, in the content's order. */
export interface SeededTest {
  id: number;
  settings: TestSettings;
  questions: { id: number; answers: { id: number; correct: boolean }[] }[];
}

/** The catalogue as seeded: ids by the content's keys. */
export interface SeededCourses {
  courseId(key: string): number;
  lessonIds: Map<string, number>;
  tests: Map<string, SeededTest>;
}

/** A demo file as written to disk, with its size. */
export type StoredFile = DemoFile & { size: number };

/** Writes every demo file under `storage/` of the file store (a folder or a bucket); returns what was written. */
export async function writeFiles(store: FileStore): Promise<StoredFile[]> {
  const stored: StoredFile[] = [];
  for (const key of Object.keys(FILES) as FileKey[]) {
    const f: DemoFile = FILES[key];
    const bytes = f.bytes();
    await store.write(`${UPLOADS_PREFIX}${f.path}`, Readable.from([bytes]));
    stored.push({ ...f, size: bytes.length });
  }
  return stored;
}

/**
 * The stored files' rows (uploaded by `authorId`), the categories (one of the same name is reused:
 * names are unique) and the courses with their modules, lessons and blocks, tests and questions.
 */
export async function seedCourses(
  trx: Transaction<Database>,
  { ago }: DemoTimes,
  stored: readonly StoredFile[],
  authorId: number,
): Promise<SeededCourses> {
  // ── stored files ──
  for (const f of stored) {
    const stamp = ago(130);
    await trx
      .insertInto('files')
      .values({
        path: f.path,
        original_filename: f.originalFilename,
        mime: f.mime,
        size: f.size,
        uploaded_by: authorId,
        created_at: stamp,
        updated_at: stamp,
      })
      .onConflict((oc) => oc.column('path').doNothing())
      .execute();
  }

  // ── categories (an existing category of the same name is reused: names are unique) ──
  const categoryIds = new Map<CategoryKey, number>();
  for (const c of CATEGORIES) categoryIds.set(c.key, await namedRowId(trx, 'course_categories', c, ago(130)));

  // ── courses, modules, lessons with their blocks, tests with questions ──
  const courseIds = new Map<string, number>();
  const lessonIds = new Map<string, number>();
  const tests = new Map<string, SeededTest>();
  for (const c of COURSES) {
    const createdAt = ago(c.createdDaysAgo);
    const updatedAt = ago(Math.max(c.createdDaysAgo - 3, 1));
    const course = await trx
      .insertInto('courses')
      .values({
        category_id: c.category ? must(categoryIds.get(c.category), c.category) : null,
        title: c.title,
        description: c.description,
        image_path: FILES[c.cover].path,
        is_published: c.published,
        has_deadline: c.deadline !== null,
        deadline_type: c.deadline?.type ?? 'from_enrollment',
        deadline_value: c.deadline?.days ?? 30,
        deadline_unit: 'days',
        deadline_warning_days: c.deadline?.warningDays ?? 3,
        has_recurrence: c.recurrenceDays !== null,
        recurrence_value: c.recurrenceDays ?? 365,
        recurrence_unit: 'days',
        accessibility: c.accessibility,
        sort_order: c.sortOrder,
        created_at: createdAt,
        updated_at: updatedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    courseIds.set(c.key, course.id);

    for (const [moduleIndex, m] of c.modules.entries()) {
      const mod = await trx
        .insertInto('modules')
        .values({
          course_id: course.id,
          name: m.name,
          sort_order: moduleIndex,
          is_published: c.published,
          published_at: c.published ? updatedAt : null,
          created_at: createdAt,
          updated_at: updatedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      for (const [itemIndex, item] of m.items.entries()) {
        if (item.kind === 'lesson') {
          const lesson = await trx
            .insertInto('lessons')
            .values({
              module_id: mod.id,
              name: item.name,
              description: item.description,
              image_path: null,
              is_published: c.published,
              sort_order: itemIndex,
              created_at: createdAt,
              updated_at: updatedAt,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          lessonIds.set(item.key, lesson.id);
          const blocks = [
            { type: 'title', content: item.name, file_path: null, original_filename: null, sort_order: -2 },
            {
              type: 'description',
              content: item.description,
              file_path: null,
              original_filename: null,
              sort_order: -1,
            },
            ...item.blocks.map((b, i) => ({ ...blockRow(b), sort_order: i })),
          ];
          await trx
            .insertInto('lesson_contents')
            .values(blocks.map((b) => ({ ...b, lesson_id: lesson.id, created_at: createdAt, updated_at: updatedAt })))
            .execute();
        } else {
          const settings: TestSettings = { ...DEFAULT_TEST_SETTINGS, ...item.settings };
          const t = await trx
            .insertInto('tests')
            .values({
              module_id: mod.id,
              name: item.name,
              is_published: c.published,
              sort_order: itemIndex,
              ...settings,
              created_at: createdAt,
              updated_at: updatedAt,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const seeded: SeededTest = { id: t.id, settings, questions: [] };
          for (const [qi, q] of item.questions.entries()) {
            const question = await trx
              .insertInto('test_questions')
              .values({
                test_id: t.id,
                title: `Вопрос ${qi + 1}`,
                type: 'text',
                question_text: q.text,
                sort_order: qi,
                created_at: createdAt,
                updated_at: updatedAt,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            const answers = await trx
              .insertInto('test_answers')
              .values(
                q.answers.map(([answer_text, is_correct], ai) => ({
                  question_id: question.id,
                  answer_text,
                  is_correct,
                  image_path: null,
                  sort_order: ai,
                  created_at: createdAt,
                  updated_at: updatedAt,
                })),
              )
              .returning(['id', 'sort_order'])
              .execute();
            answers.sort((a, b) => a.sort_order - b.sort_order);
            seeded.questions.push({
              id: question.id,
              answers: answers.map((a, ai) => ({ id: a.id, correct: q.answers[ai]?.[1] ?? false })),
            });
          }
          tests.set(item.key, seeded);
        }
      }
    }
  }
  return { courseId: (key) => must(courseIds.get(key), key), lessonIds, tests };
}

/** The content row of a lesson block (docs/rules.md §Domain model; JSON blocks are stored as text). */
function blockRow(b: Block): {
  type: string;
  content: string | null;
  file_path: string | null;
  original_filename: string | null;
} {
  switch (b.type) {
    case 'text':
      return { type: 'text', content: b.html, file_path: null, original_filename: null };
    case 'video':
      return { type: 'video', content: JSON.stringify(VIDEO), file_path: null, original_filename: null };
    case 'image': {
      const f: DemoFile = FILES[b.file];
      return {
        type: 'image',
        content: JSON.stringify({
          url: `/storage/${f.path}`,
          file_path: f.path,
          original_filename: f.originalFilename,
          description: b.description,
        }),
        file_path: f.path,
        original_filename: f.originalFilename,
      };
    }
    case 'file': {
      const f: DemoFile = FILES[b.file];
      return { type: 'file', content: null, file_path: f.path, original_filename: f.originalFilename };
    }
    case 'button':
      return { type: 'button', content: JSON.stringify(b.buttons), file_path: null, original_filename: null };
  }
}
