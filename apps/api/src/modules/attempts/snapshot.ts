import type { AttemptQuestion } from '@lms/contract';
import { storageUrl } from '../../platform/storageUrl.js';
import type { AnswerRow, QuestionRow, TestContent } from '../courses/tests.js';
import type { AttemptSnapshot, SavedAnswer } from './repository.js';

/**
 * What an attempt asked and how it is graded (docs/rules.md §Attempt snapshot): the snapshot a start
 * writes, the one rebuilt for an attempt written without one, and the grade. Pure, so that the demo
 * loader writes its attempts exactly as a start and a finish do.
 */

/**
 * The snapshot of a new attempt: the drawn questions in the attempt's order, each with its options in
 * the order `orderOptions` gives (a shuffle, or as they are), and the pass mark it will be graded against.
 */
export function snapshotOf(
  passingScore: number,
  drawn: readonly Pick<QuestionRow, 'id' | 'type' | 'question_text'>[],
  options: readonly AnswerRow[],
  orderOptions: (own: AnswerRow[]) => AnswerRow[] = (own) => own,
): AttemptSnapshot {
  return {
    passing_score: passingScore,
    questions: drawn.map((q) => ({
      id: q.id,
      type: q.type,
      question_text: q.question_text,
      answers: orderOptions(options.filter((o) => o.question_id === q.id)).map((o) => ({
        id: o.id,
        answer_text: o.answer_text,
        image_path: o.image_path,
        is_correct: o.is_correct,
      })),
    })),
  };
}

/** The order an attempt stores beside its snapshot (`question_order`, `answer_order`). */
export function storedOrder(snapshot: AttemptSnapshot): {
  question_order: number[];
  answer_order: Record<string, number[]>;
} {
  return {
    question_order: snapshot.questions.map((q) => q.id),
    answer_order: Object.fromEntries(snapshot.questions.map((q) => [String(q.id), q.answers.map((o) => o.id)])),
  };
}

/**
 * What an attempt written without a snapshot asked, from what it stored: its question order (then
 * any question it answered that the order leaves out), each question's option order, and the test's
 * rows as they are now (deleted questions included; options removed since are gone). Its pass mark
 * was not kept: the test's own stands in. Questions of other tests are left out.
 */
export function rebuiltSnapshot(
  stored: { question_order: readonly number[]; answer_order: Readonly<Record<string, readonly number[]>> },
  answers: readonly Pick<SavedAnswer, 'question_id'>[],
  content: TestContent,
): AttemptSnapshot {
  const ids = [...new Set([...stored.question_order, ...answers.map((a) => a.question_id)])];
  const byId = new Map(content.questions.map((q) => [q.id, q]));
  const asked = ids.flatMap((id) => {
    const q = byId.get(id);
    return q ? [q] : [];
  });
  return snapshotOf(content.passing_score, asked, content.options, (own) => {
    const order = stored.answer_order[String(own[0]?.question_id)] ?? [];
    const rank = (o: AnswerRow) => {
      const at = order.indexOf(o.id);
      return at < 0 ? order.length : at;
    };
    // A stable sort: options the stored order does not name keep their own order, after it.
    return [...own].sort((a, b) => rank(a) - rank(b));
  });
}

/** A question is right when the chosen options are exactly the correct ones. */
export function grade(snapshot: AttemptSnapshot, answers: readonly Pick<SavedAnswer, 'question_id' | 'answer_ids'>[]) {
  const chosen = new Map(answers.map((a) => [a.question_id, new Set(a.answer_ids)]));
  let right = 0;
  for (const q of snapshot.questions) {
    const correct = q.answers.filter((a) => a.is_correct).map((a) => a.id);
    const picked = chosen.get(q.id);
    if (picked && picked.size === correct.length && correct.every((id) => picked.has(id))) right++;
  }
  const asked = snapshot.questions.length;
  const score = asked > 0 ? Math.round((100 * right) / asked) : 0;
  return { correct_answers: right, score, is_passed: score >= snapshot.passing_score };
}

/**
 * The attempt's questions in its order as the learner's pages read them (docs/product.md §Test taking):
 * how many options are correct, never which, unless `reveal` (the review of a finished attempt).
 */
export function askedQuestions(
  asked: AttemptSnapshot,
  answers: readonly Pick<SavedAnswer, 'question_id' | 'answer_ids'>[],
  reveal: boolean,
): AttemptQuestion[] {
  const chosen = new Map(answers.map((x) => [x.question_id, new Set(x.answer_ids)]));
  return asked.questions.map((q) => {
    const picked = chosen.get(q.id);
    const correctCount = q.answers.filter((o) => o.is_correct).length;
    return {
      id: q.id,
      question: q.question_text,
      type: q.type,
      multiple: correctCount > 1,
      correctAnswers: correctCount,
      isAnswered: picked !== undefined,
      labels: q.type === 'image' ? q.answers.map((o) => o.answer_text) : [],
      options: q.answers.map((o) => ({
        id: o.id,
        value: q.type === 'image' ? (storageUrl(o.image_path) ?? o.answer_text) : o.answer_text,
        is_selected: picked?.has(o.id) ?? false,
        ...(reveal ? { is_correct: o.is_correct } : {}),
      })),
    };
  });
}
