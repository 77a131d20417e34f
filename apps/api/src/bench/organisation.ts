/**
 * The benchmarks' generated organisation: USERS employees in 20 departments, 200 courses (3 modules ×
 * 4 lessons + 1 test each, ten per department, some with re-certification), and lesson progress for
 * each learner in three of their department's courses. The first 20 users are the departments'
 * managers. Sessions are written directly (sign-in is rate-limited) with their CSRF tokens.
 */
import type { Db } from '../db/connect.js';
import { prepareDatabase } from '../bootstrap.js';
import { learningStatesOver } from '../modules/progress/standalone.js';
import { DAY } from '../platform/clock.js';
import { hashPassword } from '../platform/passwords.js';
import { hmac, randomToken, sha256 } from '../platform/tokens.js';

export const COURSES = 200;
export const DEPARTMENTS = 20;
export const COURSES_PER_DEPARTMENT = 10;
const MODULES = 3;
const LESSONS_PER_MODULE = 4;
export const BENCH_PASSWORD = 'Bench-password-1';

async function batch<T>(rows: T[], size: number, insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export interface Organisation {
  users: number;
  lessons: number;
  progressRows: number;
}

export async function seedOrganisation(db: Db, USERS: number): Promise<Organisation> {
  const k = db.kysely;
  await prepareDatabase(db);
  const now = Date.now();
  const isoAgo = (days: number) => new Date(now - days * DAY).toISOString();
  const hash = await hashPassword('Bench-password-1');
  const learner = (await k.selectFrom('roles').select('id').where('code', '=', 'learner').executeTakeFirstOrThrow()).id;
  const manager = (await k.selectFrom('roles').select('id').where('code', '=', 'manager').executeTakeFirstOrThrow()).id;

  await k
    .insertInto('departments')
    .values(Array.from({ length: DEPARTMENTS }, (_, i) => ({ name: `Отдел ${i + 1}`, sort_order: i })))
    .execute();
  await k
    .insertInto('course_categories')
    .values(Array.from({ length: 10 }, (_, i) => ({ name: `Категория ${i + 1}`, sort_order: i })))
    .execute();
  await batch(
    Array.from({ length: COURSES }, (_, i) => ({
      title: `Курс ${i + 1}`,
      category_id: (i % 10) + 1,
      is_published: true,
      has_deadline: true,
      deadline_value: 30 + (i % 20),
      has_recurrence: i % 5 === 0,
      recurrence_value: 180,
      accessibility: i % 7 === 0 ? ('everyone' as const) : ('enrolled_only' as const),
    })),
    200,
    (part) => k.insertInto('courses').values(part).execute(),
  );
  const modules = Array.from({ length: COURSES * MODULES }, (_, i) => ({
    course_id: Math.floor(i / MODULES) + 1,
    name: `Модуль ${(i % MODULES) + 1}`,
    sort_order: i % MODULES,
    is_published: true,
  }));
  await batch(modules, 500, (part) => k.insertInto('modules').values(part).execute());
  const lessons = modules.flatMap((_, m) =>
    Array.from({ length: LESSONS_PER_MODULE }, (_, j) => ({
      module_id: m + 1,
      name: `Урок ${j + 1}`,
      is_published: true,
      sort_order: j,
    })),
  );
  await batch(lessons, 500, (part) => k.insertInto('lessons').values(part).execute());
  await batch(
    modules.map((_, m) => ({ module_id: m + 1, name: 'Тест', is_published: true, sort_order: 10 })),
    500,
    (part) => k.insertInto('tests').values(part).execute(),
  );
  await batch(
    Array.from({ length: DEPARTMENTS * COURSES_PER_DEPARTMENT }, (_, i) => ({
      department_id: Math.floor(i / COURSES_PER_DEPARTMENT) + 1,
      course_id: (i % COURSES) + 1,
      assigned_at: isoAgo(40),
    })),
    500,
    (part) => k.insertInto('department_courses').values(part).execute(),
  );
  await batch(
    Array.from({ length: USERS }, (_, i) => ({
      first_name: `Имя${i}`,
      last_name: `Фамилия${i}`,
      email: `user${i}@bench.local`,
      password_hash: hash,
      department_id: (i % DEPARTMENTS) + 1,
      role_id: i < DEPARTMENTS ? manager : learner,
      created_at: isoAgo(100),
      updated_at: isoAgo(100),
    })),
    500,
    (part) => k.insertInto('users').values(part).execute(),
  );
  // Each learner has worked through part of their department's first three courses.
  const progress: { user_id: number; lesson_id: number; started_at: string; completed_at: string | null }[] = [];
  for (let u = 1; u <= USERS; u++) {
    const dep = (u - 1) % DEPARTMENTS;
    for (let c = 0; c < 3; c++) {
      const course = dep * COURSES_PER_DEPARTMENT + c + 1;
      const firstLesson = (course - 1) * MODULES * LESSONS_PER_MODULE + 1;
      const done = (u + c) % (MODULES * LESSONS_PER_MODULE);
      for (let l = 0; l < done; l++) {
        progress.push({
          user_id: u,
          lesson_id: firstLesson + l,
          started_at: isoAgo(20 - l * 0.5),
          completed_at: l === done - 1 ? null : isoAgo(19 - l * 0.5),
        });
      }
    }
  }
  await batch(progress, 1000, (part) => k.insertInto('lesson_progress').values(part).execute());
  const kept = learningStatesOver({ db: k });
  await kept.enrollment.refresh();
  await kept.states.rebuild();
  return { users: USERS, lessons: lessons.length, progressRows: progress.length };
}

/** Request headers of a signed-in browser: session cookie, CSRF cookie and header. */
export type SessionHeaders = Record<string, string>;

/** Sessions for the given users, written as sign-in would (only the token's hash is stored). */
export async function seedSessions(db: Db, userIds: readonly number[], secret: string): Promise<SessionHeaders[]> {
  const now = new Date();
  const out: SessionHeaders[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const part = userIds.slice(i, i + 500).map((userId) => ({ userId, token: randomToken() }));
    await db.kysely
      .insertInto('sessions')
      .values(
        part.map((s) => ({
          token_hash: sha256(s.token),
          user_id: s.userId,
          remember: false,
          expires_at: new Date(now.getTime() + DAY).toISOString(),
          last_seen_at: now.toISOString(),
          ip: null,
          user_agent: 'bench',
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })),
      )
      .execute();
    for (const s of part) {
      const nonce = randomToken().slice(0, 16);
      const xsrf = `${nonce}.${hmac(secret, `${nonce}|${s.token}`)}`;
      out.push({
        cookie: `lms_session=${s.token}; XSRF-TOKEN=${xsrf}`,
        'x-xsrf-token': xsrf,
        'x-requested-with': 'XMLHttpRequest',
      });
    }
  }
  return out;
}
