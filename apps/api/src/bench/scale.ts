/**
 * Scale check (issue 5): 10 000 users (SCALE_USERS) and 200 courses, on SQLite or, with
 * SCALE_DB=postgres, on a temporary database on BENCH_PG_URL (the local `test` database by default).
 * Prints the latency of GET /api/user/courses, of the analytics calls (issue 15: a manager of 500
 * employees, an admin's whole company, the employee modal) and of the engine computing a manager's
 * employees' deadline statuses, then the reminder pass. Run with `npm run bench`; not a timed test.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { UnitOfWork } from '../db/unitOfWork.js';
import { CoursesRepository } from '../modules/courses/repository.js';
import { ProgressRepository } from '../modules/progress/repository.js';
import { learningStatesOver } from '../modules/progress/standalone.js';
import { DAY, systemClock } from '../platform/clock.js';
import {
  COURSES,
  COURSES_PER_DEPARTMENT,
  seedOrganisation,
  seedSessions,
  type SessionHeaders,
} from './organisation.js';

const SECRET = 'bench-secret-0123456789-0123456789';

const USERS = Number(process.env.SCALE_USERS ?? 10_000);
const ON_POSTGRES = process.env.SCALE_DB === 'postgres';
/** The size of the manager's team the analytics targets speak of. */
const TEAM = 500;

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

/** A database for the run: a temporary SQLite file, or a temporary PostgreSQL database. */
async function open(dir: string): Promise<{ db: Db; drop(): Promise<void> }> {
  if (!ON_POSTGRES) {
    const db = connect({ dataDir: dir });
    return { db, drop: () => db.close() };
  }
  const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `lms_scale_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = connect({ databaseUrl: url.href });
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A department of exactly TEAM people (a manager and TEAM − 1 employees) with ten courses and the
 * organisation's pattern of progress, so that the manager's figures are measured at the size the
 * target names whatever the company's size (the generated departments hold USERS / 20 people).
 */
async function teamOfTarget(db: Db): Promise<number> {
  const k = db.kysely;
  const roles = await k.selectFrom('roles').select(['id', 'code']).execute();
  const role = (code: string) => roles.find((r) => r.code === code)?.id ?? 0;
  const dep = await k
    .insertInto('departments')
    .values({ name: `Отдел на ${TEAM}`, sort_order: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enrolledAt = new Date(Date.now() - 40 * DAY).toISOString();
  await k
    .insertInto('department_courses')
    .values(
      Array.from({ length: COURSES_PER_DEPARTMENT }, (_, i) => ({
        department_id: dep.id,
        course_id: i * 7 + 1,
        assigned_at: enrolledAt,
      })),
    )
    .execute();
  const ids: number[] = [];
  for (let i = 0; i < TEAM; i += 250) {
    const part = Array.from({ length: Math.min(250, TEAM - i) }, (_, j) => ({
      first_name: `Имя${i + j}`,
      last_name: `Сотрудник${i + j}`,
      email: `team${i + j}@bench.local`,
      password_hash: 'seeded-without-password',
      department_id: dep.id,
      role_id: role(i + j === 0 ? 'manager' : 'learner'),
      created_at: new Date(Date.now() - 100 * DAY).toISOString(),
    }));
    ids.push(...(await k.insertInto('users').values(part).returning('id').execute()).map((r) => r.id));
  }
  const lessons = await k
    .selectFrom('lessons')
    .innerJoin('modules', 'modules.id', 'lessons.module_id')
    .select(['lessons.id', 'modules.course_id'])
    .where('modules.course_id', 'in', [1, 8, 15])
    .orderBy('lessons.id')
    .execute();
  const progress = ids.slice(1).flatMap((userId, u) =>
    lessons
      .filter((_, l) => l % 12 < (u % 12) + 1)
      .map((l) => ({
        user_id: userId,
        lesson_id: l.id,
        started_at: new Date(Date.now() - 20 * DAY).toISOString(),
        completed_at: new Date(Date.now() - 19 * DAY).toISOString(),
      })),
  );
  for (let i = 0; i < progress.length; i += 1000)
    await k
      .insertInto('lesson_progress')
      .values(progress.slice(i, i + 1000))
      .execute();
  const kept = learningStatesOver({ db: k });
  await kept.enrollment.refresh({ userIds: ids });
  await kept.states.refresh({ userIds: ids });
  return ids[0] ?? 0;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-bench-'));
  const { db, drop } = await open(dir);
  const k = db.kysely;
  try {
    const t0 = performance.now();
    const org = await seedOrganisation(db, USERS);
    console.log(
      `data (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'}): ${USERS} users, ${COURSES} courses, ${org.lessons} lessons, ${org.progressRows} progress rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    const teamManager = await teamOfTarget(db);
    // Statistics as autovacuum would have gathered them by now: PostgreSQL plans from them.
    if (ON_POSTGRES) await sql`analyze`.execute(k);

    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, WEB_DIST: join(dir, 'none') });
    const app = await buildApp({
      config,
      db,
      clock: systemClock,
      secret: SECRET,
      // The real outbox with its file transport (DATA_DIR/mail): the reminder pass queues mails in it.
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

    // Analytics (issue 15 item 4) reads the maintained state: a manager's department, everyone, the modal.
    const adminRole = await k.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
    const adminRow = await k
      .insertInto('users')
      .values({
        first_name: 'Админ',
        last_name: 'Бенч',
        email: 'admin@bench.local',
        password_hash: 'seeded-without-password',
        role_id: adminRole.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [managerHeaders, adminHeaders, teamHeaders] = await seedSessions(db, [1, adminRow.id, teamManager], SECRET);
    const timed = async (label: string, headers: SessionHeaders | undefined, url: string, runs: number) => {
      const out: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: headers ?? {} });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
        if (i >= 3) out.push(performance.now() - t);
      }
      console.log(`${label}: ${stats(out)}`);
    };
    await timed(
      `GET /api/analytics/users, manager of ${TEAM}  [target < 30 ms]`,
      teamHeaders,
      '/api/analytics/users',
      20,
    );
    await timed(
      `GET /api/analytics/users, manager of a generated department (${USERS / 20})`,
      managerHeaders,
      '/api/analytics/users',
      20,
    );
    await timed(
      `GET /api/analytics/users, admin, all ${USERS + TEAM + 1} users  [target < 150 ms]`,
      adminHeaders,
      '/api/analytics/users',
      8,
    );
    await timed(
      'GET /api/analytics/users/{id} (employee modal)  [target < 20 ms]',
      managerHeaders,
      '/api/analytics/users/21',
      20,
    );

    const uow = new UnitOfWork(k, db.kind);
    const courses = new CoursesRepository(uow);
    const kept = learningStatesOver(uow);
    const engine = kept.engine;
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
      const enr = kept.enrollments;
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
    const kept2 = await engine.summaries(everyone, undefined, { enrolledOnly: true });
    console.log(
      `maintained state, all ${everyone.length} users (${kept2.size} enrollments): ${(performance.now() - s).toFixed(0)} ms`,
    );

    // Reminder pass (issues 16, 30): every course gets a 1-day deadline, so every unfinished
    // enrollment of the company is overdue and due a reminder at once. A pass claims them all,
    // REMINDERS_PER_PASS (10 000) a transaction, each batch with its mails queued in the outbox, and
    // the weekly digests; the second pass, while the outbox still delivers, finds nothing due.
    await k.updateTable('courses').set({ has_deadline: true, deadline_value: 1, deadline_warning_days: 1 }).execute();
    await learningStatesOver({ db: k }).states.rebuild();
    const mailFiles = () => (existsSync(join(dir, 'mail')) ? readdirSync(join(dir, 'mail')).length : 0);
    for (const pass of ['first', 'second']) {
      const r0 = performance.now();
      const { reminders } = await app.jobs.remind();
      console.log(
        `reminder pass over ${everyone.length} employees, ${pass}: ${reminders} reminders claimed, ${(performance.now() - r0).toFixed(0)} ms  [target < 2000 ms]`,
      );
      if (pass === 'first') {
        // Delivery goes on behind the pass, at the outbox's pace (file transport here).
        await new Promise((r) => setTimeout(r, 5000));
        console.log(`  delivered in the 5 s after the pass: ${mailFiles()} mails`);
      }
    }
    const c0 = performance.now();
    await app.close();
    const statuses = await k
      .selectFrom('mail_log')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    console.log(
      `  shutdown in ${(performance.now() - c0).toFixed(0)} ms: ${mailFiles()} delivered; outbox ${statuses.map((r) => `${r.status} ${Number(r.n)}`).join(', ')}`,
    );
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
