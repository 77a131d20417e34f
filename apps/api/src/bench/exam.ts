/**
 * Exam spike (issue 13): EXAM_LEARNERS learners (2 000) with sessions made by the seeder each start
 * the same 20-question timed test, answer every question and finish, all at once, over real HTTP
 * against one server process (the built `dist/server.js`), on SQLite and on PostgreSQL. Afterwards
 * the database is checked: one finished attempt per learner, every answer stored once and as sent,
 * every grade equal to a recomputation from the saved answers. Prints throughput and p50/p99 per call.
 * Run with `npm run bench` (after the scale check) or `node apps/api/dist/bench/exam.js`;
 * EXAM_DB=sqlite|postgres|both (default both), BENCH_PG_URL (default the local `test` database).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { connect, type Db } from '../db/connect.js';
import { prepareDatabase } from '../bootstrap.js';
import { randomToken } from '../platform/tokens.js';
import { LoadClient, percentile, startServer, stopServer } from './http.js';
import { seedSessions } from './organisation.js';

const CONNECTIONS = Number(process.env.EXAM_CONNECTIONS ?? 64);
/** Learners who take the test first, one per connection at once, to warm the server up (not counted). */
const WARMERS = CONNECTIONS;
const LEARNERS = Number(process.env.EXAM_LEARNERS ?? 2000) + WARMERS;
const QUESTIONS = 20;
const OPTIONS = 4;
const PASSING = 60;
const SECRET = `exam-bench-${randomToken()}`;
const P99_TARGET_MS = 200;

interface Learner {
  id: number;
  headers: Record<string, string>;
}
interface Seeded {
  courseId: number;
  testId: number;
  learners: Learner[];
  /** Correct option ids per question id. */
  correct: Map<number, number[]>;
}

async function seed(db: Db): Promise<Seeded> {
  const k = db.kysely;
  await prepareDatabase(db);
  const role = (await k.selectFrom('roles').select('id').where('code', '=', 'learner').executeTakeFirstOrThrow()).id;
  const course = await k
    .insertInto('courses')
    .values({ title: 'Экзамен по охране труда', is_published: true, accessibility: 'everyone' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const mod = await k
    .insertInto('modules')
    .values({ course_id: course.id, name: 'Аттестация', is_published: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const test = await k
    .insertInto('tests')
    .values({
      module_id: mod.id,
      name: 'Итоговый тест',
      is_published: true,
      has_timer: true,
      timer_seconds: 3600,
      passing_score: PASSING,
      show_correct_answers: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const correct = new Map<number, number[]>();
  for (let q = 0; q < QUESTIONS; q++) {
    const question = await k
      .insertInto('test_questions')
      .values({ test_id: test.id, question_text: `Вопрос ${q + 1}`, sort_order: q })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rights = q % 5 === 0 ? 2 : 1; // every fifth question has two correct options
    const ids: number[] = [];
    for (let a = 0; a < OPTIONS; a++) {
      const row = await k
        .insertInto('test_answers')
        .values({ question_id: question.id, answer_text: `Ответ ${a + 1}`, is_correct: a < rights, sort_order: a })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (a < rights) ids.push(row.id);
    }
    correct.set(question.id, ids);
  }
  const learners: Learner[] = [];
  for (let i = 0; i < LEARNERS; i += 500) {
    const users = await k
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, LEARNERS - i) }, (_, j) => ({
          first_name: 'Ученик',
          last_name: `${i + j + 1}`,
          email: `exam${i + j + 1}@bench.local`,
          password_hash: 'seeded-without-password',
          role_id: role,
        })),
      )
      .returning('id')
      .execute();
    const headers = await seedSessions(
      db,
      users.map((u) => u.id),
      SECRET,
    );
    users.forEach((u, n) => learners.push({ id: u.id, headers: headers[n] ?? {} }));
  }
  return { courseId: course.id, testId: test.id, learners, correct };
}

interface Question {
  id: number;
  multiple: boolean;
  options: { id: number }[];
}

/** What each learner sent, by attempt: question id → option ids, and the grade the server answered. */
interface Taken {
  userId: number;
  attemptId: number;
  sent: Map<number, number[]>;
  finished: { score: number; correct_answers: number; is_passed: boolean };
}

async function takeExam(client: LoadClient, s: Seeded, learner: Learner, n: number): Promise<Taken> {
  const json = (body: string) => JSON.parse(body) as { result: Record<string, unknown> };
  const started = await client.call(
    'POST /api/test-attempts/start',
    'POST',
    '/api/test-attempts/start',
    learner.headers,
    {
      course_test_id: s.testId,
    },
  );
  if (started.status !== 200) throw new Error(`start: ${started.status} ${started.body}`);
  const attemptId = (json(started.body).result.attempt as { id: number }).id;
  const view = await client.call(
    'GET /api/courses/{id}/tests/{testId}',
    'GET',
    `/api/courses/${s.courseId}/tests/${s.testId}`,
    learner.headers,
  );
  if (view.status !== 200) throw new Error(`test: ${view.status} ${view.body}`);
  const questions = (json(view.body).result.test as { questions: Question[] }).questions;
  const sent = new Map<number, number[]>();
  for (const [i, q] of questions.entries()) {
    // A spread of right and wrong answers that differs between learners.
    const first = q.options[(n + i) % q.options.length]?.id ?? 0;
    const second = q.options[(n + i + 1) % q.options.length]?.id ?? 0;
    const answer = q.multiple && (n + i) % 3 === 0 ? [first, second] : [first];
    const saved = await client.call(
      'POST /api/test-attempts/save-answers',
      'POST',
      '/api/test-attempts/save-answers',
      learner.headers,
      { attempt_id: attemptId, answers: [{ test_question_id: q.id, answer }] },
    );
    if (saved.status !== 200) throw new Error(`save: ${saved.status} ${saved.body}`);
    sent.set(q.id, answer);
  }
  const finished = await client.call(
    'POST /api/test-attempts/finish',
    'POST',
    '/api/test-attempts/finish',
    learner.headers,
    {
      attempt_id: attemptId,
    },
  );
  if (finished.status !== 200) throw new Error(`finish: ${finished.status} ${finished.body}`);
  const grade = json(finished.body).result as Taken['finished'];
  return { userId: learner.id, attemptId, sent, finished: grade };
}

/** Compares the database with what the learners sent and with a grade recomputed here. */
async function verify(db: Db, s: Seeded, taken: Taken[]): Promise<string[]> {
  const problems: string[] = [];
  const k = db.kysely;
  const attempts = await k
    .selectFrom('test_attempts')
    .select(['id', 'user_id', 'finished_at', 'score', 'correct_answers', 'is_passed'])
    .where('test_id', '=', s.testId)
    .execute();
  const answers = await k
    .selectFrom('attempt_answers')
    .innerJoin('test_attempts', 'test_attempts.id', 'attempt_answers.attempt_id')
    .select(['attempt_answers.attempt_id', 'attempt_answers.question_id', 'attempt_answers.answer_ids'])
    .where('test_attempts.test_id', '=', s.testId)
    .execute();
  if (attempts.length !== s.learners.length)
    problems.push(`${attempts.length} attempts for ${s.learners.length} learners`);
  const perUser = new Map<number, number>();
  for (const a of attempts) perUser.set(a.user_id, (perUser.get(a.user_id) ?? 0) + 1);
  const doubled = [...perUser.values()].filter((c) => c !== 1).length;
  if (doubled) problems.push(`${doubled} learners with more than one attempt`);
  const stored = new Map<number, Map<number, number[]>>();
  for (const row of answers) {
    const byQuestion = stored.get(row.attempt_id) ?? new Map<number, number[]>();
    if (byQuestion.has(row.question_id)) problems.push(`attempt ${row.attempt_id}: question ${row.question_id} twice`);
    byQuestion.set(row.question_id, row.answer_ids);
    stored.set(row.attempt_id, byQuestion);
  }
  const byId = new Map(attempts.map((a) => [a.id, a]));
  const same = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);
  for (const t of taken) {
    const row = byId.get(t.attemptId);
    if (!row?.finished_at) {
      problems.push(`attempt ${t.attemptId} not finished`);
      continue;
    }
    const saved = stored.get(t.attemptId) ?? new Map<number, number[]>();
    if (saved.size !== QUESTIONS) problems.push(`attempt ${t.attemptId}: ${saved.size} answers stored`);
    for (const [question, answer] of t.sent)
      if (!same(saved.get(question) ?? [], answer))
        problems.push(`attempt ${t.attemptId}: answer to ${question} differs`);
    const right = [...saved].filter(([question, ids]) => same(ids, s.correct.get(question) ?? [])).length;
    const score = Math.round((100 * right) / QUESTIONS);
    const expected = { score, correct_answers: right, is_passed: score >= PASSING };
    const inDb = { score: row.score, correct_answers: row.correct_answers, is_passed: row.is_passed };
    if (JSON.stringify(inDb) !== JSON.stringify(expected))
      problems.push(`attempt ${t.attemptId}: stored ${JSON.stringify(inDb)}, recomputed ${JSON.stringify(expected)}`);
    const answered = {
      score: t.finished.score,
      correct_answers: t.finished.correct_answers,
      is_passed: t.finished.is_passed,
    };
    if (JSON.stringify(answered) !== JSON.stringify(expected))
      problems.push(
        `attempt ${t.attemptId}: answered ${JSON.stringify(answered)}, recomputed ${JSON.stringify(expected)}`,
      );
  }
  return problems;
}

async function run(label: string, env: Record<string, string>, open: () => Db): Promise<boolean> {
  const seedDb = open();
  const t0 = performance.now();
  const seeded = await seed(seedDb);
  // As autovacuum would soon after such a load: without statistics PostgreSQL plans for empty tables.
  if (seedDb.kind === 'postgres') await sql`analyze`.execute(seedDb.kysely);
  await seedDb.close();
  console.log(
    `exam spike, ${label}: ${LEARNERS - WARMERS} learners (and ${WARMERS} to warm the server up) seeded (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const server = await startServer({ ...env, APP_SECRET: SECRET });
  // A server that has been running, as one is when an exam begins: its code compiled, and each database
  // connection having run the exam's statements (PostgreSQL plans a statement anew on each connection
  // for its first runs). Warmed by one exam per connection at once, not counted.
  const warmers = seeded.learners.slice(0, WARMERS);
  const learners = seeded.learners.slice(WARMERS);
  // The same connections then carry the spike, as autocannon's are open before it measures.
  const client = new LoadClient(server.url, CONNECTIONS);
  const warmed = await Promise.all(warmers.map((w, n) => takeExam(client, seeded, w, n)));
  client.resetCounts();
  const taken: Taken[] = [...warmed];
  const started = performance.now();
  const failures: string[] = [];
  try {
    const results = await Promise.allSettled(learners.map((l, n) => takeExam(client, seeded, l, n + WARMERS)));
    taken.push(...results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
    for (const r of results) if (r.status === 'rejected') failures.push(String(r.reason));
  } finally {
    client.close();
    await stopServer(server.child);
  }
  const seconds = (performance.now() - started) / 1000;
  const requests = [...client.latencies.values()].reduce((n, l) => n + l.length, 0);
  console.log(
    `  ${requests} requests in ${seconds.toFixed(1)} s: ${(requests / seconds).toFixed(0)} req/s, ${client.errors} errors, ${CONNECTIONS} connections`,
  );
  let slow = false;
  for (const [call, samples] of client.latencies) {
    const p99 = percentile(samples, 0.99);
    slow ||= p99 >= P99_TARGET_MS;
    console.log(
      `  ${call.padEnd(40)} n=${String(samples.length).padStart(6)}  p50 ${percentile(samples, 0.5).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  [target p99 < ${P99_TARGET_MS} ms]`,
    );
  }
  const checkDb = open();
  try {
    const problems = [...failures, ...(await verify(checkDb, seeded, taken))];
    if (problems.length) {
      console.log(`  FAILED: ${problems.length} problems, first: ${problems.slice(0, 5).join('; ')}`);
      return false;
    }
    console.log(
      `  checked: ${taken.length} attempts, one per learner, ${taken.length * QUESTIONS} answers stored once and as sent, every grade equal to its recomputation${slow ? '; p99 ABOVE TARGET' : ''}`,
    );
    return true;
  } finally {
    await checkDb.close();
  }
}

async function main() {
  const which = process.env.EXAM_DB ?? 'both';
  let ok = true;
  if (which === 'sqlite' || which === 'both') {
    const dir = mkdtempSync(join(tmpdir(), 'lms-exam-'));
    try {
      ok = (await run('SQLite', { DATA_DIR: dir }, () => connect({ dataDir: dir }))) && ok;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (which === 'postgres' || which === 'both') {
    const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const name = `lms_exam_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    try {
      await admin.connect();
    } catch (error) {
      console.log(`exam spike, PostgreSQL: skipped (${String(error)})`);
      return ok;
    }
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(join(tmpdir(), 'lms-exam-'));
    try {
      ok =
        (await run('PostgreSQL', { DATA_DIR: dir, DATABASE_URL: url.href }, () =>
          connect({ databaseUrl: url.href }),
        )) && ok;
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
  return ok;
}

main()
  .then((ok) => {
    if (!ok) process.exit(1);
  })
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
