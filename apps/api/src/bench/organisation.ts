/**
 * Seeds the generated organisation of layout.ts into a fresh database, fast enough for 100 000
 * employees: multi-row inserts in one transaction, lesson records written set-based (one
 * INSERT … SELECT per lesson position), and the kept tables computed by the application's own code
 * for a template of 60 employees only, then copied to everyone else set-based — an employee's
 * enrollments, learning states and ranking depend only on their course group (id mod 20) and their
 * progress pattern (id mod 12), so employee u has exactly the rows of template employee
 * (u − 1) mod 60 + 1. Sessions are written directly (sign-in is rate-limited) with their CSRF tokens.
 * BENCH_SEED_CHECK=1 recomputes every kept row with the application's code afterwards and fails
 * when the copy differs. On PostgreSQL the bulk rows are written without triggers: a value a trigger
 * keeps (and the server reads) must be recounted here.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../db/connect.js';
import { prepareDatabase } from '../bootstrap.js';
import type { Database } from '../db/schema.js';
import { learningStatesOver } from '../modules/progress/standalone.js';
import { DAY } from '../platform/clock.js';
import { hashPassword } from '../platform/passwords.js';
import { hmac, randomToken, sha256 } from '../platform/tokens.js';
import {
  COURSE_GROUPS,
  COURSES,
  COURSES_PER_GROUP,
  COURSES_WITH_RECORDS,
  DRAFT_COURSES,
  LESSONS_PER_COURSE,
  LESSONS_PER_DRAFT,
  LESSONS_PER_MODULE,
  MODULES,
  OPTIONS_PER_QUESTION,
  QUESTIONS_PER_TEST,
  departmentOf,
  departmentsFor,
  nameOf,
  type Fixture,
  type SessionHeaders,
} from './layout.js';

export const BENCH_PASSWORD = 'Bench-password-1';
/** The period of an employee's data (lcm of 20 course groups and 12 progress patterns). */
const TEMPLATE = 60;
/** The kept tables with a row per employee, copied from the template. */
const PER_EMPLOYEE = ['enrollments', 'learning_states', 'user_urgency'] as const;
const ROWS_PER_INSERT = 1000;

type Tx = Kysely<Database>;

async function inChunks<T>(rows: readonly T[], insert: (part: T[]) => Promise<unknown>, size = ROWS_PER_INSERT) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function roleId(k: Tx, code: string): Promise<number> {
  return (await k.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}

/** Courses (with the author's drafts), modules, lessons, tests with their questions, department courses. */
async function seedContent(k: Tx, departments: number, isoAgo: (days: number) => string): Promise<void> {
  await k
    .insertInto('course_categories')
    .values(Array.from({ length: 10 }, (_, i) => ({ name: `Категория ${i + 1}`, sort_order: i })))
    .execute();
  const courses = Array.from({ length: COURSES }, (_, i) => ({
    title: `Курс ${i + 1}`,
    category_id: (i % 10) + 1,
    is_published: true,
    has_deadline: true,
    deadline_value: 30 + (i % 20),
    has_recurrence: i % 5 === 0,
    recurrence_value: 180,
    accessibility: i % 7 === 0 ? ('everyone' as const) : ('enrolled_only' as const),
  }));
  const drafts = Array.from({ length: DRAFT_COURSES }, (_, i) => ({
    title: `Черновик ${i + 1}`,
    category_id: 1,
    is_published: false,
    accessibility: 'enrolled_only' as const,
  }));
  // Apart: rows of one insert must name the same columns (SQLite has no DEFAULT in a VALUES list).
  await k.insertInto('courses').values(courses).execute();
  await k.insertInto('courses').values(drafts).execute();
  const modules = [
    ...Array.from({ length: COURSES * MODULES }, (_, i) => ({
      course_id: Math.floor(i / MODULES) + 1,
      m: i % MODULES,
    })),
    ...Array.from({ length: DRAFT_COURSES }, (_, i) => ({ course_id: COURSES + i + 1, m: 0 })),
  ].map(({ course_id, m }) => ({ course_id, name: `Модуль ${m + 1}`, sort_order: m, is_published: true }));
  await inChunks(modules, (part) => k.insertInto('modules').values(part).execute());
  const lessons = modules.flatMap((module, i) =>
    Array.from({ length: module.course_id > COURSES ? LESSONS_PER_DRAFT : LESSONS_PER_MODULE }, (_, j) => ({
      module_id: i + 1,
      name: `Урок ${j + 1}`,
      is_published: true,
      sort_order: j,
    })),
  );
  await inChunks(lessons, (part) => k.insertInto('lessons').values(part).execute());
  const tests = COURSES * MODULES;
  await inChunks(
    Array.from({ length: tests }, (_, m) => ({ module_id: m + 1, name: 'Тест', is_published: true, sort_order: 10 })),
    (part) => k.insertInto('tests').values(part).execute(),
  );
  await inChunks(
    Array.from({ length: tests * QUESTIONS_PER_TEST }, (_, q) => ({
      test_id: Math.floor(q / QUESTIONS_PER_TEST) + 1,
      question_text: `Вопрос ${(q % QUESTIONS_PER_TEST) + 1}`,
      sort_order: q % QUESTIONS_PER_TEST,
    })),
    (part) => k.insertInto('test_questions').values(part).execute(),
  );
  await inChunks(
    Array.from({ length: tests * QUESTIONS_PER_TEST * OPTIONS_PER_QUESTION }, (_, a) => {
      const question = Math.floor(a / OPTIONS_PER_QUESTION);
      const option = a % OPTIONS_PER_QUESTION;
      // The first question of each test has two correct options.
      const correct = option === 0 || (option === 1 && question % QUESTIONS_PER_TEST === 0);
      return { question_id: question + 1, answer_text: `Ответ ${option + 1}`, is_correct: correct, sort_order: option };
    }),
    (part) => k.insertInto('test_answers').values(part).execute(),
  );
  await k
    .insertInto('departments')
    .values(Array.from({ length: departments }, (_, i) => ({ name: `Отдел ${i + 1}`, sort_order: i })))
    .execute();
  await inChunks(
    Array.from({ length: departments * COURSES_PER_GROUP }, (_, i) => {
      const department = Math.floor(i / COURSES_PER_GROUP) + 1;
      const group = (department - 1) % COURSE_GROUPS;
      return { department_id: department, course_id: group * COURSES_PER_GROUP + (i % COURSES_PER_GROUP) + 1 };
    }).map((row) => ({ ...row, assigned_at: isoAgo(40) })),
    (part) => k.insertInto('department_courses').values(part).execute(),
  );
}

/**
 * The lesson records of employees from…to, set-based: for each of their first three courses and each
 * lesson position l, everyone with more than l lessons done gets a row (completed unless it is their
 * last). The same rule as `lessonsDone` in layout.ts, written in SQL.
 */
async function seedProgress(k: Tx, kind: Db['kind'], from: number, to: number, isoAgo: (days: number) => string) {
  const time = (iso: string): RawBuilder<string> =>
    kind === 'postgres' ? sql<string>`cast(${iso} as timestamptz)` : sql<string>`${iso}`;
  for (let c = 0; c < COURSES_WITH_RECORDS; c++)
    for (let l = 0; l < LESSONS_PER_COURSE - 1; l++) {
      const done = sql<number>`(users.id + ${c}) % ${LESSONS_PER_COURSE}`;
      await k
        .insertInto('lesson_progress')
        .columns(['user_id', 'lesson_id', 'started_at', 'completed_at'])
        .expression(
          k
            .selectFrom('users')
            .select([
              'users.id',
              sql<number>`((users.id - 1) % ${COURSE_GROUPS} * ${COURSES_PER_GROUP} + ${c}) * ${LESSONS_PER_COURSE} + ${l + 1}`.as(
                'lesson_id',
              ),
              time(isoAgo(20 - l * 0.5)).as('started_at'),
              sql<string | null>`case when ${done} = ${l + 1} then null else ${time(isoAgo(19 - l * 0.5))} end`.as(
                'completed_at',
              ),
            ])
            .where('users.id', '>=', from)
            .where('users.id', '<=', to)
            .where(done, '>', l),
        )
        .execute();
    }
}

/** Copies the template's kept rows to employees TEMPLATE+1…to, and recounts each course's learners. */
async function copyKeptRows(k: Tx, to: number): Promise<void> {
  for (const table of PER_EMPLOYEE) {
    const sample = await k.selectFrom(table).selectAll().limit(1).executeTakeFirst();
    if (!sample) continue;
    const others = Object.keys(sample).filter((c) => c !== 'user_id' && c !== 'id');
    await sql`insert into ${sql.table(table)} (user_id, ${sql.join(others.map((c) => sql.ref(c)))})
      select u.id, ${sql.join(others.map((c) => sql.ref(`t.${c}`)))}
      from users u join ${sql.table(table)} t on t.user_id = (u.id - 1) % ${TEMPLATE} + 1
      where u.id > ${TEMPLATE} and u.id <= ${to}`.execute(k);
  }
  await sql`update course_stats set learners =
    (select count(*) from enrollments e where e.course_id = course_stats.course_id)`.execute(k);
}

export interface Seeded {
  fixture: Omit<Fixture, 'sessions' | 'admin' | 'adminInDepartment' | 'author'>;
  progressRows: number;
  /** Ids of the admin, the admin in department 1 and the author. */
  staff: { admin: number; adminInDepartment: number; author: number };
}

export async function seedOrganisation(db: Db, employees: number): Promise<Seeded> {
  const k = db.kysely;
  await prepareDatabase(db);
  const now = Date.now();
  const isoAgo = (days: number) => new Date(now - days * DAY).toISOString();
  const departments = departmentsFor(employees);
  const hash = await hashPassword(BENCH_PASSWORD);
  await k.transaction().execute(async (trx) => {
    // PostgreSQL: triggers and foreign-key checks off for the bulk rows (each user's row-level
    // live-count trigger rewrote one counter row a hundred thousand times); the rows are consistent
    // by construction, and the only trigger-kept value a fresh server reads is recounted below.
    if (db.kind === 'postgres') await sql`set local session_replication_role = replica`.execute(trx);
    const [learner, manager] = [await roleId(trx, 'learner'), await roleId(trx, 'manager')];
    await seedContent(trx, departments, isoAgo);
    const users = Array.from({ length: employees }, (_, i) => ({
      ...nameOf(i),
      email: `user${i + 1}@bench.local`,
      password_hash: hash,
      department_id: departmentOf(i + 1, departments),
      role_id: i < departments ? manager : learner,
      created_at: isoAgo(100),
      updated_at: isoAgo(100),
    }));
    await inChunks(users, (part) => trx.insertInto('users').values(part).execute());
    const template = Math.min(TEMPLATE, employees);
    await seedProgress(trx, db.kind, 1, template, isoAgo);
    const kept = learningStatesOver({ db: trx });
    await kept.enrollment.refresh({ userIds: Array.from({ length: template }, (_, i) => i + 1) });
    await kept.states.rebuild();
    await seedProgress(trx, db.kind, template + 1, employees, isoAgo);
    await copyKeptRows(trx, employees);
    await sql`update counters set value = (select count(*) from users where deleted_at is null)
      where name = 'live_users'`.execute(trx);
  });
  const staff = await seedStaff(db, hash);
  const progressRows = Number(
    (
      await k
        .selectFrom('lesson_progress')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (process.env.BENCH_SEED_CHECK === '1') await checkKeptRows(db);
  return { fixture: { employees, departments }, progressRows, staff };
}

/** Statistics as autovacuum would have gathered them by now: PostgreSQL plans from them. */
export async function analyze(db: Db): Promise<void> {
  if (db.kind === 'postgres') await sql`analyze`.execute(db.kysely);
}

/** An admin, an admin who also learns in department 1, and an author; their enrollments kept by the app. */
async function seedStaff(db: Db, hash: string): Promise<Seeded['staff']> {
  const k = db.kysely;
  const person = async (email: string, role: string, departmentId: number | null) =>
    (
      await k
        .insertInto('users')
        .values({
          first_name: 'Сотрудник',
          last_name: email.split('@')[0] ?? email,
          email,
          password_hash: hash,
          department_id: departmentId,
          role_id: await roleId(k, role),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const staff = {
    admin: await person('admin@bench.local', 'admin', null),
    adminInDepartment: await person('admin-learner@bench.local', 'admin', 1),
    author: await person('author@bench.local', 'author', null),
  };
  await k.transaction().execute(async (trx) => {
    await learningStatesOver({ db: trx }).enrollment.refresh({ userIds: Object.values(staff) });
  });
  return staff;
}

/** BENCH_SEED_CHECK: the copied rows equal what the application computes for everyone. */
async function checkKeptRows(db: Db): Promise<void> {
  const k = db.kysely;
  const snapshot = async () => {
    const out: string[] = [];
    for (const table of [...PER_EMPLOYEE, 'course_stats'] as const)
      out.push(
        JSON.stringify(
          await k
            .selectFrom(table)
            .selectAll()
            .orderBy(sql`1, 2`)
            .execute(),
        ),
      );
    return out;
  };
  const copied = await snapshot();
  await k.transaction().execute(async (trx) => {
    const kept = learningStatesOver({ db: trx });
    await kept.enrollment.refresh();
    await kept.states.rebuild();
    await kept.rankings.rebuild();
  });
  const computed = await snapshot();
  copied.forEach((rows, i) => {
    if (rows !== computed[i]) throw new Error(`seed check: ${[...PER_EMPLOYEE, 'course_stats'][i]} differs`);
  });
  console.log('  seed check: every kept row equals the application’s own computation');
}

/** Sessions for the given users, written as sign-in would (only the token's hash is stored). */
export async function seedSessions(db: Db, userIds: readonly number[], secret: string): Promise<SessionHeaders[]> {
  const now = new Date();
  const at = now.toISOString();
  const expires = new Date(now.getTime() + 7 * DAY).toISOString();
  const tokens = userIds.map((userId) => ({ userId, token: randomToken() }));
  await db.kysely.transaction().execute((trx) =>
    inChunks(tokens, (part) =>
      trx
        .insertInto('sessions')
        .values(
          part.map((s) => ({
            token_hash: sha256(s.token),
            user_id: s.userId,
            remember: false,
            expires_at: expires,
            last_seen_at: at,
            ip: null,
            user_agent: 'bench',
            created_at: at,
            updated_at: at,
          })),
        )
        .execute(),
    ),
  );
  return tokens.map(({ token }) => {
    const nonce = randomToken().slice(0, 16);
    const xsrf = `${nonce}.${hmac(secret, `${nonce}|${token}`)}`;
    return {
      cookie: `lms_session=${token}; XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': xsrf,
      'x-requested-with': 'XMLHttpRequest',
    };
  });
}
