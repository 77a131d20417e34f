/**
 * The exam spike (issue 13): EXAM_LEARNERS learners (2 000, rounded up to a multiple of the
 * connections) each start the same 20-question timed test, read it, answer every question and
 * finish, all at once, over HTTP from the load process against one server process, in a database
 * of its own. Before them one learner per connection takes it to warm the server up (not counted).
 * Afterwards the database is checked: one finished attempt per learner, every answer stored once and
 * as sent, every grade equal to the finish call's answer and to a recomputation from the stored answers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/connect.js';
import { prepareDatabase } from '../bootstrap.js';
import { freshDatabase, type BenchDb } from './database.js';
import type { ExamFixture, Taken } from './examFlow.js';
import type { LoadResult } from './load.js';
import { analyze, seedSessions } from './organisation.js';
import { load, sampleMemory, serve, settle, stop } from './processes.js';

const QUESTIONS = 20;
const OPTIONS = 4;
const PASSING = 60;

export async function seed(db: Db, learners: number, warmers: number, secret: string) {
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
    const options = await k
      .insertInto('test_answers')
      .values(
        Array.from({ length: OPTIONS }, (_, a) => ({
          question_id: question.id,
          answer_text: `Ответ ${a + 1}`,
          is_correct: a < rights,
          sort_order: a,
        })),
      )
      .returning(['id', 'is_correct'])
      .execute();
    correct.set(
      question.id,
      options.filter((o) => o.is_correct).map((o) => o.id),
    );
  }
  const ids: number[] = [];
  for (let i = 0; i < learners + warmers; i += 500) {
    const users = await k
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(500, learners + warmers - i) }, (_, j) => ({
          first_name: 'Ученик',
          last_name: `${i + j + 1}`,
          email: `exam${i + j + 1}@bench.local`,
          password_hash: 'seeded-without-password',
          role_id: role,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...users.map((u) => u.id));
  }
  const headers = await seedSessions(db, ids, secret);
  const fixture: ExamFixture = {
    courseId: course.id,
    testId: test.id,
    questions: QUESTIONS,
    learners: ids.map((id, n) => ({ id, headers: headers[n] ?? {} })),
    warmers,
  };
  return { fixture, correct };
}

/** Compares the database with what the learners sent and with a grade recomputed here. */
async function verify(db: Db, fixture: ExamFixture, correct: Map<number, number[]>, taken: Taken[]) {
  const problems: string[] = [];
  const k = db.kysely;
  const attempts = await k
    .selectFrom('test_attempts')
    .select(['id', 'user_id', 'finished_at', 'score', 'correct_answers', 'is_passed'])
    .where('test_id', '=', fixture.testId)
    .execute();
  const answers = await k
    .selectFrom('attempt_answers')
    .innerJoin('test_attempts', 'test_attempts.id', 'attempt_answers.attempt_id')
    .select(['attempt_answers.attempt_id', 'attempt_answers.question_id', 'attempt_answers.answer_ids'])
    .where('test_attempts.test_id', '=', fixture.testId)
    .execute();
  if (attempts.length !== fixture.learners.length)
    problems.push(`${attempts.length} attempts for ${fixture.learners.length} learners`);
  if (taken.length !== fixture.learners.length)
    problems.push(`${taken.length} learners finished of ${fixture.learners.length}`);
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
  const sorted = (ids: readonly number[]) => JSON.stringify([...ids].sort((x, y) => x - y));
  const gradeOf = (g: unknown) => {
    const r = (g ?? {}) as Record<string, unknown>;
    return JSON.stringify({ score: r.score, correct_answers: r.correct_answers, is_passed: r.is_passed });
  };
  for (const t of taken) {
    const row = byId.get(t.attemptId);
    if (!row?.finished_at) {
      problems.push(`attempt ${t.attemptId} not finished`);
      continue;
    }
    const saved = stored.get(t.attemptId) ?? new Map<number, number[]>();
    if (saved.size !== QUESTIONS) problems.push(`attempt ${t.attemptId}: ${saved.size} answers stored`);
    for (const [question, answer] of t.sent)
      if (sorted(saved.get(question) ?? []) !== sorted(answer))
        problems.push(`attempt ${t.attemptId}: answer to ${question} differs`);
    const right = [...saved].filter(([question, ids]) => sorted(ids) === sorted(correct.get(question) ?? [])).length;
    const score = Math.round((100 * right) / QUESTIONS);
    const expected = gradeOf({ score, correct_answers: right, is_passed: score >= PASSING });
    if (gradeOf(row) !== expected)
      problems.push(`attempt ${t.attemptId}: stored ${gradeOf(row)}, recomputed ${expected}`);
    if (gradeOf(t.finished) !== expected)
      problems.push(`attempt ${t.attemptId}: answered ${gradeOf(t.finished)}, recomputed ${expected}`);
  }
  return problems;
}

export interface ExamOutcome {
  learners: number;
  result: LoadResult;
  memory: number;
  problems: string[];
  seedSeconds: number;
}

export async function examSpike(
  kind: BenchDb,
  env: Record<string, string>,
  connections: number,
  secret: string,
): Promise<ExamOutcome> {
  const wanted = Number(process.env.EXAM_LEARNERS ?? 2000);
  const learners = Math.ceil(wanted / connections) * connections;
  const database = await freshDatabase(kind, 'exam');
  try {
    const db = database.connect();
    const t0 = Date.now();
    const { fixture, correct } = await seed(db, learners, connections, secret);
    await analyze(db);
    await db.close();
    const seedSeconds = (Date.now() - t0) / 1000;
    const fixtureFile = join(database.dir, 'exam.json');
    writeFileSync(fixtureFile, JSON.stringify(fixture));
    const server = await serve(database.dir, { ...database.env, ...env, APP_SECRET: secret });
    await settle(server.child.pid);
    const peak = sampleMemory(server.child.pid);
    let result: LoadResult;
    let memory = 0;
    try {
      result = await load(database.dir, {
        url: server.url,
        workload: 'exam',
        fixtureFile,
        connections,
        seconds: 0,
        warmupSeconds: 0,
        serverPid: server.child.pid,
      });
    } finally {
      memory = peak();
      await stop(server.child);
    }
    const check = database.connect();
    try {
      const problems = [
        ...result.failures,
        ...(await verify(check, fixture, correct, (result.extra ?? []) as Taken[])),
      ];
      return { learners, result, memory, problems, seedSeconds };
    } finally {
      await check.close();
    }
  } finally {
    await database.drop();
  }
}
