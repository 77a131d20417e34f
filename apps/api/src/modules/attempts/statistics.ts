import type { QuestionStatistic } from '@lms/contract';
import type { TestContent, TestsRepository } from '../courses/tests.js';
import type { AttemptSnapshot, AttemptsRepository, SavedAnswer } from './repository.js';
import { rebuiltSnapshot } from './snapshot.js';

const STATISTICS_BATCH = 500;

export interface FinishedAttempt {
  started_at: string;
  snapshot: AttemptSnapshot;
  answers: readonly SavedAnswer[];
}

interface Tally {
  question_id: number;
  question_text: string;
  asked: number;
  answered: number;
  correct: number;
  seconds: number;
  wrong: Map<number, { text: string; count: number }>;
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * Per-question figures for authors (issue 16), from finished attempts only and from what each
 * attempt asked (its snapshot): the question as it was, its correct options then. Feed attempts in
 * any batches; `result` gives the questions in the order of the newest attempt, then the rest.
 */
export class QuestionStatistics {
  private readonly tallies = new Map<number, Tally>();
  private attempts = 0;

  add(attempt: FinishedAttempt): void {
    this.attempts++;
    const byQuestion = new Map(attempt.answers.map((a) => [a.question_id, a]));
    // Time to answer: from the start, or from the answer given just before it.
    const order = [...attempt.answers].sort((a, b) => Date.parse(a.answered_at) - Date.parse(b.answered_at));
    const spent = new Map<number, number>();
    let last = Date.parse(attempt.started_at);
    for (const a of order) {
      const at = Date.parse(a.answered_at);
      spent.set(a.question_id, Math.max(0, (at - last) / 1000));
      last = at;
    }
    for (const q of attempt.snapshot.questions) {
      let t = this.tallies.get(q.id);
      if (!t) {
        t = { question_id: q.id, question_text: '', asked: 0, answered: 0, correct: 0, seconds: 0, wrong: new Map() };
        this.tallies.set(q.id, t);
      }
      // Attempts come newest first: the first text seen is the newest.
      if (t.asked === 0) t.question_text = q.question_text;
      t.asked++;
      const answer = byQuestion.get(q.id);
      if (!answer) continue;
      t.answered++;
      t.seconds += spent.get(q.id) ?? 0;
      const right = q.answers.filter((o) => o.is_correct).map((o) => o.id);
      if (sameSet(answer.answer_ids, right)) {
        t.correct++;
        continue;
      }
      for (const id of answer.answer_ids) {
        const option = q.answers.find((o) => o.id === id);
        if (!option || option.is_correct) continue;
        const w = t.wrong.get(id) ?? { text: option.answer_text, count: 0 };
        w.count++;
        t.wrong.set(id, w);
      }
    }
  }

  result(): { attempts: number; questions: QuestionStatistic[] } {
    const questions = [...this.tallies.values()].map((t): QuestionStatistic => {
      let top: QuestionStatistic['top_wrong_option'] = null;
      for (const [id, w] of t.wrong)
        if (!top || w.count > top.count || (w.count === top.count && id < top.id))
          top = { id, text: w.text, count: w.count };
      return {
        question_id: t.question_id,
        question_text: t.question_text,
        asked: t.asked,
        answered: t.answered,
        correct_percent: t.answered > 0 ? Math.round((100 * t.correct) / t.answered) : null,
        top_wrong_option: top,
        average_seconds: t.answered > 0 ? Math.round((10 * t.seconds) / t.answered) / 10 : null,
      };
    });
    return { attempts: this.attempts, questions };
  }
}

/**
 * The figures over every finished attempt of the test, read in batches so that memory stays flat
 * however many learners took it; an attempt kept without a snapshot is read by `rebuiltSnapshot`.
 */
export async function questionStatistics(
  testId: number,
  attempts: AttemptsRepository,
  tests: TestsRepository,
): Promise<{ attempts: number; questions: QuestionStatistic[] }> {
  const stats = new QuestionStatistics();
  let before: number | null = null;
  // Read once, only when an attempt kept without a snapshot is met.
  let content: TestContent | undefined;
  for (;;) {
    const batch = await attempts.finishedBatch(testId, before, STATISTICS_BATCH);
    if (batch.length === 0) break;
    const answers = await attempts.answersOf(batch.map((a) => a.id));
    const older = batch.filter((a) => a.snapshot === null).map((a) => a.id);
    const orders = await attempts.storedOrders(older);
    if (older.length > 0) content ??= await tests.content(testId);
    for (const a of batch) {
      const own = answers.get(a.id) ?? [];
      const order = orders.get(a.id) ?? { question_order: [], answer_order: {} };
      const snapshot = a.snapshot ?? (content ? rebuiltSnapshot(order, own, content) : null);
      if (snapshot) stats.add({ started_at: a.started_at, snapshot, answers: own });
    }
    before = batch.at(-1)?.id ?? null;
    if (batch.length < STATISTICS_BATCH) break;
  }
  return stats.result();
}
