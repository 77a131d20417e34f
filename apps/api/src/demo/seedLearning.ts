import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { UnitOfWork } from '../db/unitOfWork.js';
import { AttemptsRepository } from '../modules/attempts/repository.js';
import { grade, snapshotOf } from '../modules/attempts/snapshot.js';
import { TestsRepository } from '../modules/courses/tests.js';
import { MINUTE } from '../platform/clock.js';
import { ATTEMPT_RUNS, LESSON_RUNS, type UserKey } from './content.js';
import type { SeededCourses } from './seedCourses.js';
import { must, type DemoTimes } from './seedKit.js';

/** Lessons started and completed, then finished test attempts, by the content's runs. */
export async function seedLearning(
  trx: Transaction<Database>,
  { ago, after }: DemoTimes,
  userId: (key: UserKey) => number,
  { lessonIds, tests }: SeededCourses,
): Promise<void> {
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
