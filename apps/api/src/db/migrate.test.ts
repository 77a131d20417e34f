import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { introspectionOf } from './introspection.js';
import {
  createCourse,
  createModuleWith,
  createTestDb,
  createUser,
  dialectName,
  queriesDuring,
} from '../test/harness.js';
import { connect } from './connect.js';
import { migrateTo, migrateToLatest } from './migrate.js';
import { prepareDatabase } from '../bootstrap.js';
import { EnrollmentRepository } from '../modules/enrollment/repository.js';

const TABLES = [
  'roles',
  'users',
  'sessions',
  'password_pins',
  'rate_limits',
  'idempotency_keys',
  'attempt_files',
  'departments',
  'department_courses',
  'study_groups',
  'group_users',
  'group_courses',
  'user_courses',
  'enrollments',
  'user_urgency',
  'mail_log',
  'counters',
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

describe(`migrations (${dialectName})`, () => {
  it('create the whole domain model once; a second run changes nothing', async () => {
    const { db, drop } = await createTestDb();
    try {
      expect(await migrateToLatest(db.kysely, db.kind, db.schema)).toEqual([
        '0001_domain',
        '0002_department_assigned_at',
        '0003_records_are_kept',
        '0004_open_attempts',
        '0005_users_page',
        '0006_enrollments',
        '0007_mail_log',
        '0008_learning_states',
        '0009_reminders',
        '0010_learning_state_urgency',
        '0011_live_user_count',
        '0012_user_urgency',
        '0013_course_cards_version',
        '0014_test_content_version',
        '0015_viewer_versions',
        '0016_users_list_version',
        '0018_mail_outbox',
        '0019_own_password',
        '0020_drop_viewer_versions',
        '0021_users_search',
        '0022_kept_declared',
        '0023_course_list_version',
        '0024_people_changes',
        '0025_line_manager',
        '0026_sign_ins',
        '0027_scorm',
        '0028_certificates',
        '0029_idempotency_keys',
        '0030_attempt_files',
      ]);
      expect(await migrateToLatest(db.kysely, db.kind, db.schema)).toEqual([]);
      const tables = (await introspectionOf(db).getTables()).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(TABLES));
      const roles = await db.kysely.selectFrom('roles').select(['code', 'name']).orderBy('id').execute();
      expect(roles).toEqual([
        { code: 'admin', name: 'Администратор' },
        { code: 'author', name: 'Автор курсов' },
        { code: 'manager', name: 'Руководитель' },
        { code: 'learner', name: 'Ученик' },
      ]);
    } finally {
      await drop();
    }
  });

  it('read only their own schema of the catalogue (another schema dropped meanwhile cannot fail them)', async () => {
    const { db, drop } = await createTestDb();
    try {
      const queries = await queriesDuring(() => migrateToLatest(db.kysely, db.kind, db.schema));
      if (db.kind === 'postgres') {
        // Kysely's own introspector asks has_schema_privilege of every schema by name.
        expect(queries.filter((q) => q.includes('has_schema_privilege'))).toEqual([]);
        const tables = await introspectionOf(db).getTables();
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([db.schema]));
      }
      expect((await introspectionOf(db).getTables()).map((t) => t.name)).toEqual(expect.arrayContaining(TABLES));
    } finally {
      await drop();
    }
  });

  it('enforces foreign keys, unique e-mails and one open attempt per user and test', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const k = db.kysely;
      await expect(
        k
          .insertInto('users')
          .values({ first_name: 'a', last_name: 'b', email: 'x@y.z', password_hash: 'h', role_id: 999 })
          .execute(),
      ).rejects.toThrow();
      const user = await k
        .insertInto('users')
        .values({ first_name: 'a', last_name: 'b', email: 'x@y.z', password_hash: 'h', role_id: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await expect(
        k
          .insertInto('users')
          .values({ first_name: 'a', last_name: 'b', email: 'X@Y.Z', password_hash: 'h', role_id: 1 })
          .execute(),
      ).rejects.toThrow();
      const course = await k.insertInto('courses').values({ title: 'К' }).returning('id').executeTakeFirstOrThrow();
      const mod = await k
        .insertInto('modules')
        .values({ course_id: course.id, name: 'М' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const test = await k
        .insertInto('tests')
        .values({ module_id: mod.id, name: 'Т' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const attempt = (n: number, open: number | null) => ({
        user_id: user.id,
        test_id: test.id,
        attempt_number: n,
        started_at: '2026-01-01T00:00:00.000Z',
        open_marker: open,
        question_order: '[]',
        answer_order: '{}',
      });
      await k.insertInto('test_attempts').values(attempt(1, null)).execute();
      await k.insertInto('test_attempts').values(attempt(2, null)).execute();
      await k.insertInto('test_attempts').values(attempt(3, 1)).execute();
      await expect(k.insertInto('test_attempts').values(attempt(4, 1)).execute()).rejects.toThrow();
      await expect(k.insertInto('test_attempts').values(attempt(3, null)).execute()).rejects.toThrow();
      const t = await k.selectFrom('tests').select(['is_published', 'has_timer']).executeTakeFirstOrThrow();
      expect(t).toEqual({ is_published: false, has_timer: false });
      const c = await k.selectFrom('courses').select('created_at').executeTakeFirstOrThrow();
      expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await drop();
    }
  });
});

describe('SQLite file database', () => {
  it('uses WAL, foreign keys and a busy timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-db-'));
    const db = connect({ dataDir: dir });
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db.kysely);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
      const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db.kysely);
      expect(busy.rows[0]?.timeout).toBe(5000);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(`0003 records are kept (${dialectName})`, () => {
  it('keeps every record with its id while the foreign keys change to restrict', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateTo(db.kysely, db.kind, '0002_department_assigned_at', db.schema);
      // Rows of the old schema, written as they were (JSON as text).
      const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const user = await k
        .insertInto('users')
        .values({ first_name: 'a', last_name: 'b', email: 'x@y.z', password_hash: 'h', role_id: 4 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const course = await k.insertInto('courses').values({ title: 'К' }).returning('id').executeTakeFirstOrThrow();
      const mod = await k
        .insertInto('modules')
        .values({ course_id: course.id, name: 'М' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const lesson = await k
        .insertInto('lessons')
        .values({ module_id: mod.id, name: 'У' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const test = await k
        .insertInto('tests')
        .values({ module_id: mod.id, name: 'Т' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const question = await k
        .insertInto('test_questions')
        .values({ test_id: test.id, question_text: 'В' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await k
        .insertInto('lesson_progress')
        .values({ user_id: user.id, lesson_id: lesson.id, started_at: null })
        .execute();
      const attempt = await k
        .insertInto('test_attempts')
        .values({
          user_id: user.id,
          test_id: test.id,
          attempt_number: 7,
          started_at: '2026-01-01T00:00:00.000Z',
          question_order: `[${String(question.id)}]`,
          answer_order: '{}',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await k
        .insertInto('attempt_answers')
        .values({
          attempt_id: attempt.id,
          question_id: question.id,
          answer_ids: '[1,2]',
          answered_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();

      expect(await migrateToLatest(db.kysely, db.kind, db.schema)).toEqual([
        '0003_records_are_kept',
        '0004_open_attempts',
        '0005_users_page',
        '0006_enrollments',
        '0007_mail_log',
        '0008_learning_states',
        '0009_reminders',
        '0010_learning_state_urgency',
        '0011_live_user_count',
        '0012_user_urgency',
        '0013_course_cards_version',
        '0014_test_content_version',
        '0015_viewer_versions',
        '0016_users_list_version',
        '0018_mail_outbox',
        '0019_own_password',
        '0020_drop_viewer_versions',
        '0021_users_search',
        '0022_kept_declared',
        '0023_course_list_version',
        '0024_people_changes',
        '0025_line_manager',
        '0026_sign_ins',
        '0027_scorm',
        '0028_certificates',
        '0029_idempotency_keys',
        '0030_attempt_files',
      ]);

      const kept = await db.kysely.selectFrom('test_attempts').selectAll().executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ id: attempt.id, attempt_number: 7, question_order: [question.id], snapshot: null });
      const answer = await db.kysely.selectFrom('attempt_answers').selectAll().executeTakeFirstOrThrow();
      expect(answer.answer_ids).toEqual([1, 2]);
      expect(await db.kysely.selectFrom('lesson_progress').select('user_id').execute()).toEqual([{ user_id: user.id }]);
      // No cascade reaches a record any more: hard deletes of what they refer to are refused.
      await expect(db.kysely.deleteFrom('courses').execute()).rejects.toThrow();
      await expect(db.kysely.deleteFrom('users').execute()).rejects.toThrow();
      await expect(db.kysely.deleteFrom('test_questions').execute()).rejects.toThrow();
      expect(await db.kysely.selectFrom('test_attempts').select('id').execute()).toHaveLength(1);
      // A deleted user's address is free again.
      await db.kysely.updateTable('users').set({ deleted_at: '2026-01-02T00:00:00.000Z' }).execute();
      await db.kysely
        .insertInto('users')
        .values({ first_name: 'a', last_name: 'b', email: 'X@y.z', password_hash: 'h', role_id: 4 })
        .execute();
      if (db.kind === 'sqlite') {
        const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db.kysely);
        expect(fk.rows[0]?.foreign_keys).toBe(1);
      }
    } finally {
      await drop();
    }
  });
});

describe(`0012 kept rankings (${dialectName})`, () => {
  it('are written at start-up for every learner with a state, and again after a start-up stopped during it', async () => {
    const { db, drop } = await createTestDb();
    try {
      await migrateTo(db.kysely, db.kind, '0011_live_user_count', db.schema);
      const k = db.kysely;
      const role = await k.selectFrom('roles').select('id').where('code', '=', 'learner').executeTakeFirstOrThrow();
      const user = await k
        .insertInto('users')
        .values({ first_name: 'a', last_name: 'b', email: 'x@y.z', password_hash: 'h', role_id: role.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const course = await k
        .insertInto('courses')
        .values({ title: 'К', is_published: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      await k
        .insertInto('user_courses')
        .values({ user_id: user.id, course_id: course.id, assigned_at: new Date().toISOString() })
        .execute();
      await new EnrollmentRepository({ db: k }).refresh({ userIds: [user.id] });
      // A state written by the code of 0011, before the table of kept rankings existed.
      await k
        .insertInto('learning_states')
        .values({
          user_id: user.id,
          course_id: course.id,
          cycle: 1,
          cycle_start: null,
          started_at: null,
          completed_at: null,
          lessons_completed: 0,
          tests_completed: 0,
          deadline: null,
          valid_until: null,
          enrolled_at: new Date().toISOString(),
          warning_at: null,
        })
        .execute();

      expect(await prepareDatabase(db)).toEqual([
        '0012_user_urgency',
        '0013_course_cards_version',
        '0014_test_content_version',
        '0015_viewer_versions',
        '0016_users_list_version',
        '0018_mail_outbox',
        '0019_own_password',
        '0020_drop_viewer_versions',
        '0021_users_search',
        '0022_kept_declared',
        '0023_course_list_version',
        '0024_people_changes',
        '0025_line_manager',
        '0026_sign_ins',
        '0027_scorm',
        '0028_certificates',
        '0029_idempotency_keys',
        '0030_attempt_files',
      ]);
      const row = () => k.selectFrom('user_urgency').select(['user_id', 'course_id']).execute();
      expect(await row()).toEqual([{ user_id: user.id, course_id: course.id }]);

      // Stopped half-way: no rows yet and the mark not set. The next start-up writes them.
      await k.deleteFrom('user_urgency').execute();
      await k.updateTable('counters').set({ value: 0 }).where('name', '=', 'user_urgency_built').execute();
      expect(await prepareDatabase(db)).toEqual([]);
      expect(await row()).toEqual([{ user_id: user.id, course_id: course.id }]);
      expect(
        await k.selectFrom('counters').select('value').where('name', '=', 'user_urgency_built').executeTakeFirst(),
      ).toEqual({ value: 1 });
    } finally {
      await drop();
    }
  });
});

describe(`migration 0018 (${dialectName})`, () => {
  it('0018 keeps the logged mails, with their ids, as sent; new rows may wait unsent', async () => {
    const { db, drop } = await createTestDb();
    try {
      const k = db.kysely;
      await migrateTo(k, db.kind, '0016_users_list_version', db.schema);
      const sentAt = '2026-02-01T10:00:00.000Z';
      for (const to of ['a@example.com', 'c@example.com'])
        await sql`insert into mail_log (recipient, user_id, kind, course_id, subject, sent_at)
          values (${to}, null, 'manager_digest', null, 'Сводка', ${sentAt})`.execute(k);
      // A gap in the ids, as rows of a rolled back insert leave.
      await sql`delete from mail_log where recipient = 'a@example.com'`.execute(k);
      expect(await migrateToLatest(k, db.kind, db.schema)).toEqual([
        '0018_mail_outbox',
        '0019_own_password',
        '0020_drop_viewer_versions',
        '0021_users_search',
        '0022_kept_declared',
        '0023_course_list_version',
        '0024_people_changes',
        '0025_line_manager',
        '0026_sign_ins',
        '0027_scorm',
        '0028_certificates',
        '0029_idempotency_keys',
        '0030_attempt_files',
      ]);
      const kept = await k.selectFrom('mail_log').selectAll().executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ id: 2, subject: 'Сводка', status: 'sent', queued_at: sentAt, sent_at: sentAt });
      expect([kept.attempts, kept.body, kept.next_attempt_at, kept.lease_owner]).toEqual([1, null, null, null]);
      const indexes =
        db.kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master
              where type = 'index' and tbl_name = 'mail_log' and name not like 'sqlite_%'`.execute(k)
          : await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename = 'mail_log' and schemaname = current_schema() and indexname not like '%_pkey'`.execute(
              k,
            );
      expect(indexes.rows.map((r) => r.name).sort()).toEqual(['mail_log_due_idx', 'mail_log_queued_idx']);
      const queued = await k
        .insertInto('mail_log')
        .values({
          recipient: 'b@example.com',
          user_id: null,
          kind: 'manager_digest',
          course_id: null,
          subject: 'Сводка',
          status: 'queued',
          queued_at: sentAt,
          sent_at: null,
          next_attempt_at: sentAt,
        })
        .returning(['id', 'attempts'])
        .executeTakeFirstOrThrow();
      // The id sequence goes on after the kept rows.
      expect(queued.id).toBe(3);
      expect(queued.attempts).toBe(0);
    } finally {
      await drop();
    }
  });
});

describe(`migration 0030 (${dialectName})`, () => {
  it('names the images of the snapshots already kept, once each, and nothing for the others', async () => {
    const { db, drop } = await createTestDb();
    try {
      const k = db.kysely;
      await migrateTo(k, db.kind, '0029_idempotency_keys', db.schema);
      const now = '2026-02-01T10:00:00.000Z';
      const user = await createUser(db, { role: 'learner' });
      const course = await createCourse(db, 'Курс');
      const testId = (await createModuleWith(db, course, { tests: 1 })).testIds[0];
      const snapshot = (paths: (string | null)[]) =>
        JSON.stringify({
          passing_score: 70,
          questions: [
            {
              id: 1,
              type: 'image',
              question_text: 'Где?',
              answers: paths.map((image_path, i) => ({ id: i + 1, answer_text: '', image_path, is_correct: i === 0 })),
            },
          ],
        });
      const attempt = async (n: number, stored: string | null) =>
        (
          await sql<{ id: number }>`insert into test_attempts
            (user_id, test_id, attempt_number, started_at, finished_at, question_order, answer_order, snapshot, created_at, updated_at)
            values (${user.id}, ${testId}, ${n}, ${now}, ${now}, '[]', '{}', ${stored}, ${now}, ${now})
            returning id`.execute(k)
        ).rows[0]?.id;
      const withImages = await attempt(1, snapshot(['tests/a.png', 'tests/b.png', 'tests/a.png', null]));
      await attempt(2, snapshot([null, null]));
      await attempt(3, null);
      expect(await migrateToLatest(k, db.kind, db.schema)).toEqual(['0030_attempt_files']);
      const rows = await k.selectFrom('attempt_files').selectAll().orderBy('path').execute();
      expect(rows).toEqual([
        { attempt_id: withImages, path: 'tests/a.png' },
        { attempt_id: withImages, path: 'tests/b.png' },
      ]);
    } finally {
      await drop();
    }
  });
});
