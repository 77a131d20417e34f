import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../bootstrap.js';
import { loadConfig, type Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { DAY, ManualClock } from '../platform/clock.js';
import { verifyPassword } from '../platform/passwords.js';
import { createTestDb, dialectName } from '../test/harness.js';
import { DEMO_PASSWORD, loadDemo, type DemoResult } from './seed.js';

const TABLES: (keyof Database)[] = [
  'users',
  'departments',
  'department_courses',
  'study_groups',
  'group_users',
  'group_courses',
  'user_courses',
  'course_categories',
  'courses',
  'modules',
  'lessons',
  'lesson_contents',
  'tests',
  'test_questions',
  'test_answers',
  'lesson_progress',
  'test_attempts',
  'attempt_answers',
  'files',
];

describe(`demo data (${dialectName})`, () => {
  let db: Db;
  let drop: () => Promise<void>;
  let dataDir: string;
  let config: Config;
  const clock = new ManualClock('2026-03-10T09:00:00.000Z');
  let first: DemoResult;

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const row = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  };

  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
    await migrateToLatest(db.kysely, db.kind, db.schema);
    dataDir = mkdtempSync(join(tmpdir(), 'lms-demo-'));
    config = loadConfig({ DATA_DIR: dataDir, LOGIN_DOMAIN: 'example.com' });
    await ensureFirstAdmin(db.kysely, config, clock);
    first = await loadDemo(db.kysely, config, clock);
  });

  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates accounts of every role that sign in with the demo password', async () => {
    expect(first.created).toBe(true);
    expect(first.password).toBe(DEMO_PASSWORD);
    expect(first.users.map((u) => u.email)).toEqual(
      expect.arrayContaining(['author@example.com', 'manager@example.com', 'learner@example.com']),
    );
    expect(first.users.some((u) => u.role === 'admin')).toBe(false); // the first admin already existed

    const users = await db.kysely
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        'users.email',
        'users.password_hash',
        'users.must_change_password',
        'roles.code',
        'departments.name as department',
      ])
      .execute();
    // The demo password is known to everyone trying the platform: no account asks for another first.
    expect(users.filter((u) => u.must_change_password)).toEqual([]);
    expect(new Set(users.map((u) => u.code))).toEqual(new Set(['admin', 'author', 'manager', 'learner']));
    expect(users.filter((u) => u.code === 'admin')).toHaveLength(1);
    expect(users.filter((u) => u.code === 'learner').length).toBeGreaterThanOrEqual(9);
    const learner = users.find((u) => u.email === 'learner@example.com');
    expect(await verifyPassword(learner?.password_hash ?? '', DEMO_PASSWORD)).toBe(true);
    const manager = users.find((u) => u.email === 'manager@example.com');
    expect(manager?.department).toBe('Отдел продаж');
    // the manager has employees: the other users of the department
    expect(
      users.filter((u) => u.department === 'Отдел продаж' && u.email !== manager?.email).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('has the departments, the group and the categories', async () => {
    const departments = await db.kysely
      .selectFrom('departments')
      .select(['name', 'sort_order'])
      .orderBy('id')
      .execute();
    expect(departments).toEqual([
      { name: 'Отдел продаж', sort_order: 1 },
      { name: 'Бухгалтерия', sort_order: 2 },
      { name: 'ИТ-отдел', sort_order: 3 },
      { name: 'Служба персонала', sort_order: null },
    ]);
    const group = await db.kysely
      .selectFrom('study_groups')
      .innerJoin('group_users', 'group_users.group_id', 'study_groups.id')
      .select(['study_groups.name', 'group_users.user_id'])
      .execute();
    expect(group.length).toBeGreaterThan(1);
    expect(group.every((g) => g.name === 'Новые сотрудники')).toBe(true);
    const categories = await db.kysely
      .selectFrom('course_categories')
      .select(['name', 'sort_order'])
      .orderBy('sort_order')
      .execute();
    expect(categories.map((c) => c.name)).toEqual(['Обязательное обучение', 'Продукты компании', 'Развитие навыков']);
  });

  it('has published courses with deadlines, a recurring one, one without category and a draft', async () => {
    const courses = await db.kysely.selectFrom('courses').selectAll().execute();
    expect(courses.length).toBeGreaterThanOrEqual(4);
    expect(courses.some((c) => c.category_id === null)).toBe(true);
    expect(courses.filter((c) => !c.is_published)).toHaveLength(1);
    expect(new Set(courses.filter((c) => c.is_published).map((c) => c.accessibility))).toEqual(
      new Set(['everyone', 'enrolled_only']),
    );
    expect(courses.some((c) => c.has_deadline && c.deadline_type === 'from_enrollment')).toBe(true);
    expect(courses.some((c) => c.has_deadline && c.deadline_type === 'from_start')).toBe(true);
    expect(courses.some((c) => c.has_recurrence)).toBe(true);
    const modules = await db.kysely
      .selectFrom('modules')
      .select(['course_id', 'is_published', 'published_at'])
      .execute();
    for (const c of courses) {
      const own = modules.filter((m) => m.course_id === c.id);
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.every((m) => m.is_published === c.is_published && (m.published_at !== null) === c.is_published)).toBe(
        true,
      );
    }
    const draftLessons = await db.kysely
      .selectFrom('lessons')
      .innerJoin('modules', 'modules.id', 'lessons.module_id')
      .innerJoin('courses', 'courses.id', 'modules.course_id')
      .select(['lessons.is_published', 'courses.id as course_id'])
      .execute();
    const published = new Map(courses.map((c) => [c.id, c.is_published]));
    expect(draftLessons.every((l) => l.is_published === published.get(l.course_id))).toBe(true);
  });

  it('has every block type, with valid JSON where the block holds JSON', async () => {
    const blocks = await db.kysely.selectFrom('lesson_contents').selectAll().execute();
    expect(new Set(blocks.map((b) => b.type))).toEqual(
      new Set(['title', 'description', 'text', 'video', 'image', 'file', 'button']),
    );
    const lessons = await db.kysely.selectFrom('lessons').select(['id', 'name']).execute();
    for (const l of lessons) {
      const own = blocks.filter((b) => b.lesson_id === l.id);
      expect(own.find((b) => b.type === 'title')).toMatchObject({ sort_order: -2, content: l.name });
      expect(own.find((b) => b.type === 'description')?.sort_order).toBe(-1);
    }
    for (const b of blocks.filter((x) => x.type === 'video'))
      expect(JSON.parse(b.content ?? '')).toEqual({
        url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        videoId: 'dQw4w9WgXcQ',
      });
    for (const b of blocks.filter((x) => x.type === 'image')) {
      const image = JSON.parse(b.content ?? '') as {
        url: string;
        file_path: string;
        original_filename: string;
        description: string;
      };
      expect(image.url).toBe(`/storage/${image.file_path}`);
      expect(b.file_path).toBe(image.file_path);
      expect(image.description.length).toBeGreaterThan(0);
    }
    for (const b of blocks.filter((x) => x.type === 'button')) {
      const buttons = JSON.parse(b.content ?? '') as { title: string; url: string }[];
      expect(buttons.length).toBeGreaterThan(0);
      expect(buttons[0]?.url).toMatch(/^https:\/\//);
    }
  });

  it('stores the files it points at, on disk and in the files table', async () => {
    const files = await db.kysely.selectFrom('files').selectAll().execute();
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const onDisk = join(dataDir, 'storage', f.path);
      expect(existsSync(onDisk)).toBe(true);
      expect(statSync(onDisk).size).toBe(Number(f.size));
      if (f.mime === 'image/png') expect(readFileSync(onDisk).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    }
    const referenced = await db.kysely
      .selectFrom('lesson_contents')
      .select('file_path')
      .where('file_path', 'is not', null)
      .execute();
    const courseImages = await db.kysely.selectFrom('courses').select('image_path').execute();
    const paths = new Set(files.map((f) => f.path));
    for (const p of [...referenced.map((r) => r.file_path), ...courseImages.map((c) => c.image_path)]) {
      expect(paths.has(p ?? '')).toBe(true);
    }
    expect(referenced.length).toBeGreaterThan(0);
  });

  it('has tests with settings and questions whose answers are marked right', async () => {
    const tests = await db.kysely.selectFrom('tests').selectAll().execute();
    expect(tests.some((t) => t.has_timer && t.timer_seconds > 0)).toBe(true);
    expect(tests.some((t) => t.has_attempts_limit && t.max_attempts > 1)).toBe(true);
    expect(tests.some((t) => t.has_question_bank && t.question_bank_size > 0)).toBe(true);
    expect(tests.some((t) => t.show_correct_answers)).toBe(true);
    const questions = await db.kysely.selectFrom('test_questions').select(['id', 'test_id', 'type']).execute();
    const answers = await db.kysely.selectFrom('test_answers').select(['question_id', 'is_correct']).execute();
    for (const t of tests) {
      const own = questions.filter((q) => q.test_id === t.id);
      expect(own.length).toBeGreaterThanOrEqual(3);
      expect(own.length).toBeLessThanOrEqual(5);
      if (t.has_question_bank) expect(t.question_bank_size).toBeLessThan(own.length);
    }
    let multiple = 0;
    for (const q of questions) {
      const own = answers.filter((a) => a.question_id === q.id);
      const correct = own.filter((a) => a.is_correct).length;
      expect(q.type).toBe('text');
      expect(correct).toBeGreaterThanOrEqual(1);
      expect(correct).toBeLessThan(own.length);
      if (correct > 1) multiple++;
    }
    expect(multiple).toBeGreaterThan(0);
  });

  it('has enrolments in the past and learners part-way through', async () => {
    const now = clock.now().getTime();
    for (const table of ['department_courses', 'group_courses', 'user_courses'] as const) {
      const rows = await db.kysely.selectFrom(table).select('assigned_at').execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        const days = (now - new Date(r.assigned_at).getTime()) / DAY;
        expect(days).toBeGreaterThanOrEqual(5);
        expect(days).toBeLessThanOrEqual(45);
      }
    }

    const open = await db.kysely
      .selectFrom('lesson_progress')
      .innerJoin('users', 'users.id', 'lesson_progress.user_id')
      .select(['lesson_progress.started_at', 'lesson_progress.completed_at'])
      .where('users.email', '=', 'learner@example.com')
      .where('lesson_progress.completed_at', 'is', null)
      .execute();
    expect(open.length).toBeGreaterThanOrEqual(1);
    expect(open.every((p) => p.started_at !== null && new Date(p.started_at).getTime() < now)).toBe(true);

    const attempts = await db.kysely.selectFrom('test_attempts').selectAll().execute();
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.some((a) => a.is_passed === true)).toBe(true);
    expect(attempts.some((a) => a.is_passed === false)).toBe(true);
    const tests = await db.kysely.selectFrom('tests').select(['id', 'passing_score']).execute();
    const answers = await db.kysely.selectFrom('attempt_answers').selectAll().execute();
    for (const a of attempts) {
      expect(a.finished_at).not.toBeNull();
      expect(a.open_marker).toBeNull();
      expect(new Date(a.finished_at ?? '').getTime()).toBeGreaterThan(new Date(a.started_at).getTime());
      if (a.expires_at)
        expect(new Date(a.finished_at ?? '').getTime()).toBeLessThanOrEqual(new Date(a.expires_at).getTime());
      const order = a.question_order;
      expect(typeof a.answer_order).toBe('object');
      const own = answers.filter((x) => x.attempt_id === a.id);
      expect(own.map((x) => x.question_id).sort()).toEqual([...order].sort());
      for (const x of own) expect(Array.isArray(x.answer_ids)).toBe(true);
      expect(a.score).toBe(Math.round((100 * (a.correct_answers ?? 0)) / order.length));
      const passing = tests.find((t) => t.id === a.test_id)?.passing_score ?? 0;
      expect(a.is_passed).toBe((a.score ?? 0) >= passing);
    }

    const active = await db.kysely
      .selectFrom('users')
      .select('last_activity_at')
      .where('last_activity_at', 'is not', null)
      .execute();
    expect(active.length).toBeGreaterThan(5);
  });

  it('completes a whole course for at least one learner', async () => {
    const rows = await db.kysely
      .selectFrom('courses')
      .innerJoin('modules', 'modules.course_id', 'courses.id')
      .innerJoin('lessons', 'lessons.module_id', 'modules.id')
      .select(['courses.id as course_id', 'lessons.id as lesson_id'])
      .where('courses.title', '=', 'Охрана труда и пожарная безопасность')
      .execute();
    const done = await db.kysely
      .selectFrom('lesson_progress')
      .innerJoin('users', 'users.id', 'lesson_progress.user_id')
      .select(['users.email', 'lesson_progress.lesson_id'])
      .where('lesson_progress.completed_at', 'is not', null)
      .where(
        'lesson_progress.lesson_id',
        'in',
        rows.map((r) => r.lesson_id),
      )
      .execute();
    const perUser = new Map<string, number>();
    for (const d of done) perUser.set(d.email, (perUser.get(d.email) ?? 0) + 1);
    const finishers = [...perUser].filter(([, n]) => n === rows.length).map(([email]) => email);
    expect(finishers.length).toBeGreaterThan(0);
    const passed = await db.kysely
      .selectFrom('test_attempts')
      .innerJoin('users', 'users.id', 'test_attempts.user_id')
      .select('users.email')
      .where('test_attempts.is_passed', '=', true)
      .where('users.email', 'in', finishers)
      .execute();
    expect(passed.length).toBeGreaterThan(0);
  });

  it('changes nothing on a second run', async () => {
    const before = await counts();
    clock.advance(DAY);
    const again = await loadDemo(db.kysely, config, clock);
    expect(again.created).toBe(false);
    expect(again.password).toBe(DEMO_PASSWORD);
    expect(again.users.map((u) => u.email)).toContain('learner@example.com');
    expect(await counts()).toEqual(before);
  });
});

describe(`demo data without an administrator (${dialectName})`, () => {
  it('creates admin@<domain> with the demo password when there is no administrator', async () => {
    const { db, drop } = await createTestDb();
    const dataDir = mkdtempSync(join(tmpdir(), 'lms-demo-'));
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const config = loadConfig({ DATA_DIR: dataDir, LOGIN_DOMAIN: 'example.com' });
      const result = await loadDemo(db.kysely, config, new ManualClock());
      expect(result.users[0]).toEqual({ email: 'admin@example.com', role: 'admin' });
      const admins = await db.kysely
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select(['users.email', 'users.password_hash'])
        .where('roles.code', '=', 'admin')
        .execute();
      expect(admins.map((a) => a.email)).toEqual(['admin@example.com']);
      expect(await verifyPassword(admins[0]?.password_hash ?? '', DEMO_PASSWORD)).toBe(true);
      // the server's first-admin step then has nothing to do
      expect(await ensureFirstAdmin(db.kysely, config, new ManualClock())).toBeNull();
    } finally {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
