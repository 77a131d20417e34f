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
import { UnitOfWork } from '../db/unitOfWork.js';
import { CoursesRepository } from '../modules/courses/repository.js';
import { ProgressRepository } from '../modules/progress/repository.js';
import { LearningEngine } from '../modules/progress/service.js';
import { learningStatesOver } from '../modules/progress/states.js';
import { CapturingMailer } from '../platform/mail/mailer.js';
import { systemClock } from '../platform/clock.js';
import { COURSES, seedOrganisation, seedSessions, type SessionHeaders } from './organisation.js';

const SECRET = 'bench-secret-0123456789-0123456789';

const USERS = Number(process.env.SCALE_USERS ?? 10_000);

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
    const t0 = performance.now();
    const org = await seedOrganisation(db, USERS);
    console.log(
      `data: ${USERS} users, ${COURSES} courses, ${org.lessons} lessons, ${org.progressRows} progress rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, WEB_DIST: join(dir, 'none') });
    const app = await buildApp({
      config,
      db,
      clock: systemClock,
      secret: SECRET,
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
    const [managerHeaders, adminHeaders] = await seedSessions(db, [1, adminRow.id], SECRET);
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
      'GET /api/analytics/users, manager of 500  [target < 30 ms]',
      managerHeaders,
      '/api/analytics/users',
      20,
    );
    await timed(
      `GET /api/analytics/users, admin, all ${USERS}  [target < 150 ms]`,
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
    const engine = new LearningEngine(new ProgressRepository(uow), courses, kept.enrollment, systemClock, kept.states);
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
      const enr = kept.enrollment;
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

    // Reminder pass (issue 16): every course gets a 1-day deadline, so every unfinished enrollment
    // of the company is overdue and due a reminder in the first pass; the second finds nothing.
    await k.updateTable('courses').set({ has_deadline: true, deadline_value: 1, deadline_warning_days: 1 }).execute();
    await learningStatesOver({ db: k }).states.rebuild();
    for (const pass of ['first', 'second']) {
      const r0 = performance.now();
      const { reminders } = await app.jobs.remind();
      console.log(
        `reminder pass over ${everyone.length} employees, ${pass}: ${reminders} reminders, ${(performance.now() - r0).toFixed(0)} ms  [target < 2000 ms]`,
      );
    }
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
