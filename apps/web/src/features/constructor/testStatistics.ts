import type { QuestionStatistic } from '@lms/contract';
import { pluralRu, type RuForms } from '../../lib/plural';

/** 'по 1 завершённой попытке', 'по 2 завершённым попыткам', 'по 5 завершённым попыткам'. */
const FINISHED_ATTEMPT_FORMS: RuForms = ['завершённой попытке', 'завершённым попыткам', 'завершённым попыткам'];

/** The line above the questions: 'Статистика по 3 завершённым попыткам'. */
export const statisticsHeader = (attempts: number): string =>
  `Статистика по ${attempts} ${pluralRu(attempts, FINISHED_ATTEMPT_FORMS)}`;

/** Mean answer time, rounded to whole seconds: '14 с', '1 мин 5 с', '2 мин'. */
export function formatAnswerTime(seconds: number): string {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.round(seconds)) : 0;
  if (total < 60) return `${total} с`;
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  return rest === 0 ? `${minutes} мин` : `${minutes} мин ${rest} с`;
}

export type CorrectColor = 'green' | 'orange' | 'red';

/** The colour of the share of right answers: green from 70 %, orange from 40 %, red below. */
export function correctColor(percent: number): CorrectColor {
  if (percent >= 70) return 'green';
  if (percent >= 40) return 'orange';
  return 'red';
}

export interface SplitStatistics {
  /** The figures of the questions still in the editor, by their id. */
  byId: ReadonlyMap<number, QuestionStatistic>;
  /** The figures of questions no longer in the editor, in the server's order. */
  deleted: QuestionStatistic[];
}

/**
 * Matches the figures to the editor's questions by id (new questions have temporary string keys
 * and no figures); the rest belong to deleted questions.
 */
export function splitStatistics(
  questions: readonly QuestionStatistic[],
  editorKeys: readonly (number | string)[],
): SplitStatistics {
  const present = new Set(editorKeys.filter((key): key is number => typeof key === 'number'));
  const byId = new Map<number, QuestionStatistic>();
  const deleted: QuestionStatistic[] = [];
  for (const q of questions) {
    if (present.has(q.question_id)) byId.set(q.question_id, q);
    else deleted.push(q);
  }
  return { byId, deleted };
}
