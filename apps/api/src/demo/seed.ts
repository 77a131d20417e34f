import { learningStatesOver } from '../modules/progress/standalone.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { UnitOfWork } from '../db/unitOfWork.js';
import { AttemptsRepository } from '../modules/attempts/repository.js';
import { grade, snapshotOf } from '../modules/attempts/snapshot.js';
import { TestsRepository } from '../modules/courses/tests.js';
import { DAY, MINUTE, type Clock } from '../platform/clock.js';
import { hashPassword } from '../platform/passwords.js';
import {
  ATTEMPT_RUNS,
  CATEGORIES,
  COURSES,
  DEFAULT_TEST_SETTINGS,
  DEPARTMENT_COURSES,
  DEPARTMENTS,
  FILES,
  GROUP,
  GROUP_COURSES,
  LESSON_RUNS,
  MARKER_LOCAL,
  USER_COURSES,
  USERS,
  VIDEO,
  type Block,
  type CategoryKey,
  type DemoFile,
  type DemoRole,
  type DeptKey,
  type FileKey,
  type TestSettings,
  type UserKey,
} from './content.js';

/** The password of every demo account (documented; the demo is for trying the product out). */
export const DEMO_PASSWORD = 'Demo-2026!';

export interface DemoResult {
  /** false: the demo was already there and nothing was changed. */
  created: boolean;
  /** The demo accounts that sign in with `password`. */
  users: { email: string; role: string }[];
  password: string;
}

interface SeededTest {
  id: number;
  settings: TestSettings;
  questions: { id: number; answers: { id: number; correct: boolean }[] }[];
}

const ROLE_ORDER: Record<string, number> = { admin: 0, author: 1, manager: 2, learner: 3 };

/** The demo e-mail of a local part, in the configured login domain. */
export const demoEmail = (config: Config, local: string): string => `${local}@${config.loginDomain}`.toLowerCase();

/**
 * Loads the demo organisation (departments, people, a study group, the course catalogue with
 * lessons, tests and files, assignments and learning progress), with times relative to the clock.
 * Idempotent: when any demo account (e.g. learner@<domain>) already exists, nothing is changed.
 * The database part is one transaction; the files are written to `${dataDir}/storage/demo/` first
 * (rewriting them is harmless), so the rows never point at a missing file.
 */
export async function loadDemo(db: Kysely<Database>, config: Config, clock: Clock): Promise<DemoResult> {
  const emails = USERS.map((u) => demoEmail(config, u.local));
  if (await anyExists(db, emails)) {
    return { created: false, users: await existingDemoUsers(db, emails), password: DEMO_PASSWORD };
  }

  const nowMs = clock.now().getTime();
  const ago = (days: number): string => new Date(nowMs - Math.round(days * DAY)).toISOString();
  const after = (at: string, ms: number): string => new Date(new Date(at).getTime() + ms).toISOString();

  // Slow work outside the transaction: password hashes (one salt each) and the files on disk.
  const hashes = await Promise.all([...USERS, null].map(() => hashPassword(DEMO_PASSWORD)));
  const adminHash = hashes[USERS.length] ?? '';
  const stored = writeFiles(config.dataDir);

  return db.transaction().execute(async (trx): Promise<DemoResult> => {
    if (await anyExists(trx, emails)) {
      return { created: false, users: await existingDemoUsers(trx, emails), password: DEMO_PASSWORD };
    }
    const created: { email: string; role: string }[] = [];

    const roleRows = await trx.selectFrom('roles').select(['id', 'code']).execute();
    const roleId = (code: DemoRole): number => {
      const row = roleRows.find((r) => r.code === code);
      if (!row) throw new Error(`Роль ${code} не найдена: миграции не применены?`);
      return row.id;
    };

    // ── departments (an existing department of the same name is reused) ──
    const deptIds = new Map<DeptKey, number>();
    for (const d of DEPARTMENTS) {
      const existing = await trx.selectFrom('departments').select('id').where('name', '=', d.name).executeTakeFirst();
      const stamp = ago(120);
      const id =
        existing?.id ??
        (
          await trx
            .insertInto('departments')
            .values({ name: d.name, sort_order: d.sortOrder, created_at: stamp, updated_at: stamp })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      deptIds.set(d.key, id);
    }
    const deptId = (key: DeptKey): number => must(deptIds.get(key), key);

    // ── an administrator only when there is none ──
    const admin = await trx
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select('users.id')
      .where('roles.code', '=', 'admin')
      .executeTakeFirst();
    if (!admin) {
      const plain = demoEmail(config, 'admin');
      const taken = await anyExists(trx, [plain]);
      const email = taken ? demoEmail(config, 'admin.demo') : plain;
      const stamp = ago(150);
      await trx
        .insertInto('users')
        .values({
          first_name: 'Администратор',
          last_name: 'Главный',
          email,
          password_hash: adminHash,
          position: 'Администратор платформы',
          role_id: roleId('admin'),
          last_activity_at: ago(0.5),
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
      created.push({ email, role: 'admin' });
    }

    // ── people ──
    const userIds = new Map<UserKey, number>();
    for (const [i, u] of USERS.entries()) {
      const email = demoEmail(config, u.local);
      const stamp = ago(u.createdDaysAgo);
      const row = await trx
        .insertInto('users')
        .values({
          first_name: u.firstName,
          last_name: u.lastName,
          email,
          password_hash: hashes[i] ?? '',
          position: u.position,
          department_id: deptId(u.dept),
          role_id: roleId(u.role),
          last_activity_at: u.lastActivityDaysAgo === null ? null : ago(u.lastActivityDaysAgo),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      userIds.set(u.key, row.id);
      created.push({ email, role: u.role });
    }
    const userId = (key: UserKey): number => must(userIds.get(key), key);
    const authorId = userId('author');

    // ── study group ──
    const groupStamp = ago(GROUP.addedDaysAgo + 1);
    const group = await trx
      .insertInto('study_groups')
      .values({ name: GROUP.name, created_at: groupStamp, updated_at: groupStamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('group_users')
      .values(GROUP.members.map((m) => ({ group_id: group.id, user_id: userId(m), added_at: ago(GROUP.addedDaysAgo) })))
      .execute();

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
    for (const c of CATEGORIES) {
      const existing = await trx
        .selectFrom('course_categories')
        .select('id')
        .where(sql<string>`lower(name)`, '=', c.name.toLowerCase())
        .executeTakeFirst();
      const stamp = ago(130);
      const id =
        existing?.id ??
        (
          await trx
            .insertInto('course_categories')
            .values({ name: c.name, sort_order: c.sortOrder, created_at: stamp, updated_at: stamp })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      categoryIds.set(c.key, id);
    }

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
    const courseId = (key: string): number => must(courseIds.get(key), key);

    // ── enrollment ──
    await trx
      .insertInto('department_courses')
      .values(
        DEPARTMENT_COURSES.map((a) => ({
          department_id: deptId(a.dept),
          course_id: courseId(a.course),
          assigned_at: ago(a.daysAgo),
        })),
      )
      .execute();
    await trx
      .insertInto('group_courses')
      .values(
        GROUP_COURSES.map((a) => ({ group_id: group.id, course_id: courseId(a.course), assigned_at: ago(a.daysAgo) })),
      )
      .execute();
    await trx
      .insertInto('user_courses')
      .values(
        USER_COURSES.map((a) => ({
          user_id: userId(a.user),
          course_id: courseId(a.course),
          assigned_at: ago(a.daysAgo),
        })),
      )
      .execute();
    const kept = learningStatesOver({ db: trx }, clock);
    await kept.enrollment.refresh();

    // ── lessons started and completed ──
    await trx
      .insertInto('lesson_progress')
      .values(
        LESSON_RUNS.map((r) => {
          const started = ago(r.startedDaysAgo);
          const completed = r.minutes === null ? null : after(started, r.minutes * MINUTE);
          return {
            user_id: userId(r.user),
            lesson_id: must(lessonIds.get(r.lesson), r.lesson),
            started_at: started,
            completed_at: completed,
            created_at: started,
            updated_at: completed ?? started,
          };
        }),
      )
      .execute();

    // ── finished test attempts, written as a start, the answers and a finish write them ──
    const unit = seedUnit(trx);
    const attempts = new AttemptsRepository(unit);
    const content = new TestsRepository(unit);
    const numbers = new Map<string, number>();
    for (const run of [...ATTEMPT_RUNS].sort((a, b) => b.startedDaysAgo - a.startedDaysAgo)) {
      const t = must(tests.get(run.test), run.test);
      const asked = (run.asked ?? t.questions.map((_, i) => i)).map((i) => must(t.questions[i], `${run.test}#${i}`));
      const row = must(await content.find(t.id), run.test);
      const { questions, options } = await content.askable(t.id, row.content_version);
      const drawn = asked.map((q) =>
        must(
          questions.find((x) => x.id === q.id),
          `${run.test}: вопрос ${q.id}`,
        ),
      );
      // A fixed "shuffle" of the options, so that the demo is the same on every load.
      const snapshot = snapshotOf(row.passing_score, drawn, options, row.randomize_answers ? rotate : undefined);
      const key = `${run.user}:${run.test}`;
      const attemptNumber = (numbers.get(key) ?? 0) + 1;
      numbers.set(key, attemptNumber);

      const startedAt = ago(run.startedDaysAgo);
      const finishedAt = after(startedAt, run.minutes * MINUTE);
      const id = await attempts.insert(
        {
          user_id: userId(run.user),
          test_id: t.id,
          attempt_number: attemptNumber,
          started_at: startedAt,
          expires_at: row.has_timer ? after(startedAt, row.timer_seconds * 1000) : null,
          snapshot,
        },
        startedAt,
      );
      const step = (run.minutes * MINUTE) / (asked.length + 1);
      for (const [k, q] of asked.entries()) {
        const correct = q.answers.filter((a) => a.correct).map((a) => a.id);
        // a wrong answer: for a multiple-choice question only part of the right options, else a wrong option
        const incorrect = q.answers.filter((a) => !a.correct).map((a) => a.id);
        const chosen = !run.wrong.includes(t.questions.indexOf(q))
          ? correct
          : correct.length > 1
            ? correct.slice(0, 1)
            : [must(incorrect[k % incorrect.length], `${run.test}: нет неверного ответа`)];
        await attempts.saveAnswer(id, q.id, chosen, after(startedAt, Math.round(step * (k + 1))));
      }
      const open = must(await attempts.find(id), `попытка ${id}`);
      const graded = grade(snapshot, await attempts.answers(id));
      if (!(await attempts.finish(open, { finished_at: finishedAt, ...graded }, finishedAt))) {
        throw new Error(`Демо-данные: попытка ${id} не завершена`);
      }
    }

    await kept.states.rebuild();
    created.sort((a, b) => (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9));
    return { created: true, users: created, password: DEMO_PASSWORD };
  });
}

/** The content row of a lesson block (DESIGN.md §5; JSON blocks are stored as text). */
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

/** Writes every demo file under `${dataDir}/storage/`; returns what was written. */
function writeFiles(dataDir: string): (DemoFile & { size: number })[] {
  return (Object.keys(FILES) as FileKey[]).map((key) => {
    const f: DemoFile = FILES[key];
    const bytes = f.bytes();
    const target = join(dataDir, 'storage', f.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
    return { ...f, size: bytes.length };
  });
}

async function anyExists(db: Kysely<Database>, emails: string[]): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', 'in', emails).executeTakeFirst();
  return row !== undefined;
}

async function existingDemoUsers(db: Kysely<Database>, emails: string[]): Promise<{ email: string; role: string }[]> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select(['users.email', 'roles.code'])
    .where('users.email', 'in', emails)
    .execute();
  const order = new Map(emails.map((e, i) => [e, i]));
  return rows
    .map((r) => ({ email: r.email, role: r.code }))
    .sort((a, b) => (order.get(a.email) ?? 0) - (order.get(b.email) ?? 0));
}

/**
 * The demo's writes go through the repositories of real attempts, in the loader's transaction: a unit
 * of work over it (its `run` is never called here, so no transaction is nested).
 */
function seedUnit(trx: Transaction<Database>): UnitOfWork {
  return new UnitOfWork(trx, trx.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
}

/** A fixed "shuffle" for the stored answer order, so that the demo is the same on every load. */
function rotate<T>(items: T[]): T[] {
  return items.length < 2 ? items : [...items.slice(1), ...items.slice(0, 1)];
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Демо-данные: не найдено «${what}»`);
  return value;
}

export { MARKER_LOCAL };
