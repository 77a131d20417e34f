/**
 * Scale check (issue 5): 10 000 users and 200 courses on SQLite. Prints the latency of
 * GET /api/user/courses and of the engine computing a manager's employees' deadline statuses.
 * Run with `npm run bench`; not a timed test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { UnitOfWork } from '../db/unitOfWork.js';
import { CoursesRepository } from '../modules/courses/repository.js';
import { EnrollmentRepository } from '../modules/enrollment/repository.js';
import { ProgressRepository } from '../modules/progress/repository.js';
import { LearningEngine } from '../modules/progress/service.js';
import { CapturingMailer } from '../platform/mail/mailer.js';
import { DAY, systemClock } from '../platform/clock.js';
import { hashPassword } from '../platform/passwords.js';

const USERS = 10_000;
const COURSES = 200;
const DEPARTMENTS = 20;
const COURSES_PER_DEPARTMENT = 10;
const MODULES = 3;
const LESSONS_PER_MODULE = 4;

async function batch<T>(rows: T[], size: number, insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-bench-'));
  const db = connect({ dataDir: dir });
  const k = db.kysely;
  try {
    await migrateToLatest(k, db.kind);
    const t0 = performance.now();
    const now = Date.now();
    const isoAgo = (days: number) => new Date(now - days * DAY).toISOString();
    const hash = await hashPassword('Bench-password-1');
    const learner = (await k.selectFrom('roles').select('id').where('code', '=', 'learner').executeTakeFirstOrThrow())
      .id;
    const manager = (await k.selectFrom('roles').select('id').where('code', '=', 'manager').executeTakeFirstOrThrow())
      .id;

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
    console.log(
      `data: ${USERS} users, ${COURSES} courses, ${lessons.length} lessons, ${progress.length} progress rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, WEB_DIST: join(dir, 'none') });
    const app = await buildApp({
      config,
      db,
      clock: systemClock,
      secret: 'bench-secret-0123456789-0123456789',
      mailer: new CapturingMailer(),
    });
    await app.ready();
    const csrf = await app.inject({ method: 'GET', url: '/api/check-auth' });
    const xsrf = csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      payload: { login: 'user777@bench.local', password: 'Bench-password-1', remember: false },
      cookies: { 'XSRF-TOKEN': xsrf },
      headers: { 'x-requested-with': 'XMLHttpRequest', 'x-xsrf-token': xsrf },
    });
    const session = login.cookies.find((c) => c.name === 'lms_session')?.value ?? '';
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/user/courses', cookies: { lms_session: session } });
      if (res.statusCode !== 200) throw new Error(`user/courses: ${res.statusCode}`);
      if (i >= 10) samples.push(performance.now() - s);
    }
    console.log(
      `GET /api/user/courses (one learner, 10 visible courses + open ones): ${stats(samples)}  [target < 20 ms]`,
    );

    const uow = new UnitOfWork(k, db.kind);
    const courses = new CoursesRepository(uow);
    const engine = new LearningEngine(new ProgressRepository(uow), courses, new EnrollmentRepository(uow), systemClock);
    const employees = (await k.selectFrom('users').select('id').where('department_id', '=', 1).execute()).map(
      (r) => r.id,
    );
    const managerSamples: number[] = [];
    let pairs = 0;
    for (let i = 0; i < 15; i++) {
      const s = performance.now();
      const states = await engine.states(employees, undefined, { enrolledOnly: true });
      pairs = states.size;
      if (i >= 3) managerSamples.push(performance.now() - s);
    }
    console.log(
      `engine, a manager's department (${employees.length} employees, ${pairs} enrollments): ${stats(managerSamples)}  [target < 150 ms]`,
    );

    if (process.env.BENCH_PROFILE) {
      const enr = new EnrollmentRepository(uow);
      const pr = new ProgressRepository(uow);
      for (let i = 0; i < 5; i++) {
        let t = performance.now();
        const e = await enr.list({ userIds: employees });
        const tEnr = performance.now() - t;
        t = performance.now();
        const ids = [...new Set(e.map((x) => x.course_id))];
        await courses.rules(ids);
        await courses.publishedItems(ids);
        const tItems = performance.now() - t;
        t = performance.now();
        await pr.records(employees);
        const tRec = performance.now() - t;
        console.log(
          `  enrollment ${tEnr.toFixed(1)} ms, courses+items ${tItems.toFixed(1)} ms, records ${tRec.toFixed(1)} ms`,
        );
      }
    }
    const everyone = (await k.selectFrom('users').select('id').execute()).map((r) => r.id);
    const s = performance.now();
    const all = await engine.states(everyone, undefined, { enrolledOnly: true });
    console.log(
      `engine, all ${everyone.length} users (${all.size} enrollments): ${(performance.now() - s).toFixed(0)} ms`,
    );
    await app.close();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
